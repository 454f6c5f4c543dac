// A group: its repositories, searched by exact name (the API's `name` filter),
// and a form to create one.
import { useEffect, useState } from 'preact/hooks';
import { api, uidPath } from '../api.js';
import { ErrorMessage } from '../error-message.js';
import { when } from '../format.js';
import { usePagedList } from '../paged-list.js';
import type { Group } from './groups-page.js';

interface Repo {
  uid: string;
  name: string;
  description: string;
  updateTime?: string;
}

export function GroupPage({ uid }: { uid: string }) {
  const [group, setGroup] = useState<Group>();
  const [error, setError] = useState<unknown>();
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [createError, setCreateError] = useState<unknown>();
  useEffect(() => {
    api<Group>('GET', `/iam/v2/groups/${uidPath(uid)}`).then(setGroup, setError);
  }, [uid]);
  const repos = usePagedList<Repo>('/registry/v2/repos', 'repos', { 'uidp.childrenOf': uid, name: search || undefined });
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      await api('POST', `/registry/v2/repos/${uidPath(uid)}`, { name, description });
      setName('');
      setDescription('');
      setCreateError(undefined);
      repos.reload();
    } catch (err) {
      setCreateError(err);
    }
  };
  return (
    <section>
      <h1>{group ? group.name : 'Group'}</h1>
      <ErrorMessage error={error} />
      {group?.description ? <p>{group.description}</p> : null}
      <p class="mono small">{uid}</p>
      <h2>Repositories</h2>
      <form
        class="inline"
        aria-label="Search repositories"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch((e.currentTarget.elements.namedItem('q') as HTMLInputElement).value.trim());
        }}
      >
        <label>
          Repository name
          <input name="q" type="search" maxLength={256} />
        </label>
        <button type="submit">Search</button>
        {search ? (
          <button type="button" onClick={() => setSearch('')}>
            Show all
          </button>
        ) : null}
      </form>
      <table>
        <caption class="sr-only">Repositories of the group</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {repos.items.map((r) => (
            <tr key={r.uid}>
              <td>
                <a href={`/ui/repos/${r.uid}`}>{r.name}</a>
              </td>
              <td>{r.description}</td>
              <td>{when(r.updateTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {repos.items.length === 0 && !repos.loading && !repos.error ? <p>No repositories.</p> : null}
      {repos.pager}
      <h2>New repository</h2>
      <form class="stack" onSubmit={create}>
        <label>
          Name
          <input value={name} required maxLength={256} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <input value={description} maxLength={1000} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button type="submit">Create repository</button>
        <ErrorMessage error={createError} />
      </form>
    </section>
  );
}
