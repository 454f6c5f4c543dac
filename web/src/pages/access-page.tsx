// Who may do what in a group: its identities, the roles, the role bindings
// (create and delete: the API checks the caller's rights and its refusal is
// shown) and the group's invites.
import { useState } from 'preact/hooks';
import { api, uidPath } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { ErrorMessage } from '../error-message.js';
import { when } from '../format.js';
import { usePagedList } from '../paged-list.js';
import type { Group } from './groups-page.js';

interface Named {
  uid: string;
  name: string;
}
interface Binding {
  uid: string;
  identity?: Named;
  group?: Named;
  role?: Named;
  createTime?: string;
}
interface Invite {
  uid: string;
  email: string;
  role?: Named;
  expirationTime?: string;
  singleUse: boolean;
}

function useAction(after: () => void): [(f: () => Promise<unknown>) => Promise<void>, unknown] {
  const [error, setError] = useState<unknown>();
  const run = async (f: () => Promise<unknown>) => {
    try {
      await f();
      setError(undefined);
      after();
    } catch (e) {
      setError(e);
    }
  };
  return [run, error];
}

function Select({ label, items, value, onChange }: { label: string; items: Named[]; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      {label}
      <select value={value} required onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">Choose…</option>
        {items.map((i) => (
          <option key={i.uid} value={i.uid}>
            {i.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AccessPage({ scope, setScope }: { scope: string; setScope: (uid: string) => void }) {
  const groups = usePagedList<Group>('/iam/v2/groups', 'groups', {}, 200);
  const group = scope || groups.items[0]?.uid || '';
  const identities = usePagedList<Named>(group ? '/iam/v2/identities' : undefined, 'identities', {});
  const roles = usePagedList<Named>('/iam/v2/roles', 'roles', {}, 200);
  const bindings = usePagedList<Binding>(group ? '/iam/v2/roleBindings' : undefined, 'roleBindings', { 'uidp.descendantsOf': group });
  const invites = usePagedList<Invite>(group ? '/iam/v2/groupInvites' : undefined, 'groupInvites', { 'uidp.childrenOf': group });
  const allIdentities = usePagedList<Named>('/iam/v2/identities', 'identities', {}, 200);
  const [identity, setIdentity] = useState('');
  const [role, setRole] = useState('');
  const [inviteRole, setInviteRole] = useState('');
  const [email, setEmail] = useState('');
  // The invite's code is shown once, at creation (the API never answers it again).
  const [code, setCode] = useState('');
  const [bind, bindError] = useAction(bindings.reload);
  const [invite, inviteError] = useAction(invites.reload);
  return (
    <section>
      <h1>Access</h1>
      <label>
        Group
        <select value={group} onChange={(e) => setScope(e.currentTarget.value)}>
          {groups.items.map((g) => (
            <option key={g.uid} value={g.uid}>
              {g.name} ({g.uid.split('/').length > 1 ? 'subgroup' : 'organization'})
            </option>
          ))}
        </select>
      </label>
      <h2>Role bindings</h2>
      <table>
        <caption class="sr-only">Role bindings in and below the group</caption>
        <thead>
          <tr>
            <th scope="col">Identity</th>
            <th scope="col">Role</th>
            <th scope="col">Group</th>
            <th scope="col">Since</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {bindings.items.map((b) => (
            <tr key={b.uid}>
              <td>{b.identity?.name}</td>
              <td>{b.role?.name}</td>
              <td>{b.group?.name}</td>
              <td>{when(b.createTime)}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Delete the binding of ${b.role?.name} to ${b.identity?.name}`}
                  onClick={() => bind(() => api('DELETE', `/iam/v2/roleBindings/${uidPath(b.uid)}`))}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {bindings.pager}
      <form
        class="inline"
        aria-label="New role binding"
        onSubmit={(e) => {
          e.preventDefault();
          void bind(() => api('POST', `/iam/v2/roleBindings/${uidPath(group)}`, { identityUid: identity, roleUid: role }));
        }}
      >
        <Select label="Identity" items={allIdentities.items} value={identity} onChange={setIdentity} />
        <Select label="Role" items={roles.items} value={role} onChange={setRole} />
        <button type="submit">Bind role</button>
      </form>
      <ErrorMessage error={bindError} />
      <h2>Identities</h2>
      <ul>
        {identities.items.map((i) => (
          <li key={i.uid}>
            {i.name} <span class="mono small">{i.uid}</span>
          </li>
        ))}
      </ul>
      {identities.pager}
      <h2>Roles</h2>
      <ul class="columns">
        {roles.items.map((r) => (
          <li key={r.uid}>{r.name}</li>
        ))}
      </ul>
      {roles.pager}
      <h2>Invites</h2>
      <ul>
        {invites.items.map((i) => (
          <li key={i.uid}>
            {i.role?.name} {i.email ? `for ${i.email}` : ''} · expires {when(i.expirationTime)}{' '}
            <button type="button" class="danger" onClick={() => invite(() => api('DELETE', `/iam/v2/groupInvites/${uidPath(i.uid)}`))}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {invites.pager}
      <form
        class="inline"
        aria-label="New invite"
        onSubmit={(e) => {
          e.preventDefault();
          void invite(async () =>
            setCode((await api<{ code: string }>('POST', `/iam/v2/groupInvites/${uidPath(group)}`, { roleUid: inviteRole, email })).code),
          );
        }}
      >
        <Select label="Role" items={roles.items} value={inviteRole} onChange={setInviteRole} />
        <label>
          Email (optional)
          <input type="email" value={email} maxLength={320} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <button type="submit">Create invite</button>
      </form>
      <ErrorMessage error={inviteError} />
      {code ? (
        <p role="status">
          Invite code (shown once): <code class="digest">{code}</code> <CopyButton text={code} label="Copy the invite code" />
        </p>
      ) : null}
    </section>
  );
}
