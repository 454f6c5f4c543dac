// Advisories search: the API's free-text `query`, paged.
import { useState } from 'preact/hooks';
import { when } from '../format.js';
import { usePagedList } from '../paged-list.js';

interface Advisory {
  uid: string;
  advisoryId: string;
  artifactName: string;
  componentName: string;
  aliases: string[];
  updateTime?: string;
}

export function AdvisoriesPage() {
  const [query, setQuery] = useState('');
  const list = usePagedList<Advisory>('/vulnerabilities/v2/advisories', 'advisories', { query: query || undefined });
  return (
    <section>
      <h1>Advisories</h1>
      <form
        class="inline"
        aria-label="Search advisories"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery((e.currentTarget.elements.namedItem('q') as HTMLInputElement).value.trim());
        }}
      >
        <label>
          Search (CVE, package, image)
          <input name="q" type="search" maxLength={256} />
        </label>
        <button type="submit">Search</button>
      </form>
      <table>
        <caption class="sr-only">Advisories</caption>
        <thead>
          <tr>
            <th scope="col">Advisory</th>
            <th scope="col">Image</th>
            <th scope="col">Package</th>
            <th scope="col">Aliases</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((a) => (
            <tr key={a.uid}>
              <td>{a.advisoryId}</td>
              <td>{a.artifactName}</td>
              <td>{a.componentName}</td>
              <td>{a.aliases.join(', ')}</td>
              <td>{when(a.updateTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.items.length === 0 && !list.loading && !list.error ? <p>No advisories found.</p> : null}
      {list.pager}
    </section>
  );
}
