// The organization tree: every group the caller may see, nested by uid (a
// child's uid is its parent's plus one segment); a group whose parent the
// caller cannot see is shown at the top. Create, rename and delete are offered
// to everyone and the API decides (its refusal is shown).
import { useState } from 'preact/hooks';
import { api, uidPath } from '../api.js';
import { ErrorMessage } from '../error-message.js';
import { usePagedList } from '../paged-list.js';

export interface Group {
  uid: string;
  name: string;
  description: string;
}

function parentOf(uid: string): string {
  const i = uid.lastIndexOf('/');
  return i < 0 ? '' : uid.slice(0, i);
}

function Tree({ groups, parent, onChange }: { groups: Group[]; parent: string; onChange: () => void }) {
  const uids = new Set(groups.map((g) => g.uid));
  const here = groups.filter((g) => (parent === '' ? !uids.has(parentOf(g.uid)) : parentOf(g.uid) === parent));
  if (here.length === 0) return null;
  return (
    <ul class="tree">
      {here.map((g) => (
        <li key={g.uid}>
          <GroupRow group={g} onChange={onChange} />
          <Tree groups={groups} parent={g.uid} onChange={onChange} />
        </li>
      ))}
    </ul>
  );
}

function GroupRow({ group, onChange }: { group: Group; onChange: () => void }) {
  const [mode, setMode] = useState<'' | 'rename' | 'create'>('');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      setMode('');
      setError(undefined);
      onChange();
    } catch (e) {
      setError(e);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (mode === 'rename') void act(() => api('PATCH', `/iam/v2/groups/${uidPath(group.uid)}`, { name }));
    else void act(() => api('POST', `/iam/v2/groups/${uidPath(group.uid)}`, { name }));
  };
  return (
    <div class="group-row">
      <a href={`/ui/groups/${group.uid}`}>{group.name}</a>
      <span class="actions">
        <button
          type="button"
          onClick={() => {
            setMode('create');
            setName('');
          }}
        >
          New subgroup
        </button>
        <button
          type="button"
          onClick={() => {
            setMode('rename');
            setName(group.name);
          }}
        >
          Rename
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => confirm(`Delete the group ${group.name}?`) && void act(() => api('DELETE', `/iam/v2/groups/${uidPath(group.uid)}`))}
        >
          Delete
        </button>
      </span>
      {mode ? (
        <form class="inline" onSubmit={submit}>
          <label>
            {mode === 'rename' ? `New name of ${group.name}` : `Name of the new group under ${group.name}`}
            <input value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit">{mode === 'rename' ? 'Rename' : 'Create'}</button>
          <button type="button" onClick={() => setMode('')}>
            Cancel
          </button>
        </form>
      ) : null}
      <ErrorMessage error={error} />
    </div>
  );
}

export function GroupsPage() {
  const list = usePagedList<Group>('/iam/v2/groups', 'groups', {}, 200);
  return (
    <section>
      <h1>Organizations</h1>
      <p class="hint">Every group you may see, nested. Open one for its repositories.</p>
      {list.items.length === 0 && !list.loading && !list.error ? <p>No groups.</p> : null}
      <Tree groups={list.items} parent="" onChange={list.reload} />
      {list.pager}
    </section>
  );
}
