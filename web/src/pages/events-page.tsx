// Event subscriptions and, for one, its delivery log with redeliver.
import { useState } from 'preact/hooks';
import { api, uidPath } from '../api.js';
import { ErrorMessage } from '../error-message.js';
import { when } from '../format.js';
import { usePagedList } from '../paged-list.js';

interface Subscription {
  uid: string;
  sink: string;
  signed: boolean;
  createTime?: string;
}
interface Delivery {
  id: string;
  eventType: string;
  eventSubject: string;
  status: string;
  attempts: number;
  lastStatusCode: number;
  lastError: string;
  createTime?: string;
}

function Deliveries({ subscription }: { subscription: string }) {
  const list = usePagedList<Delivery>(`/events/v2/subscriptions/${uidPath(subscription)}/deliveries`, 'deliveries');
  const [error, setError] = useState<unknown>();
  const redeliver = async (id: string) => {
    try {
      await api('POST', `/events/v2/subscriptions/${uidPath(subscription)}/deliveries/${encodeURIComponent(id)}:redeliver`, {});
      setError(undefined);
      list.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div>
      <h2>Delivery log</h2>
      <ErrorMessage error={error} />
      <table>
        <caption class="sr-only">Deliveries of the subscription</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((d) => (
            <tr key={d.id}>
              <td>
                {d.eventType} <span class="small">{d.eventSubject}</span>
              </td>
              <td>{d.status.toLowerCase()}</td>
              <td>{d.attempts}</td>
              <td>{d.lastStatusCode ? d.lastStatusCode : d.lastError}</td>
              <td>{when(d.createTime)}</td>
              <td>
                <button type="button" onClick={() => redeliver(d.id)}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.items.length === 0 && !list.loading && !list.error ? <p>No deliveries.</p> : null}
      {list.pager}
    </div>
  );
}

export function EventsPage({ selected }: { selected: string }) {
  const list = usePagedList<Subscription>('/events/v2/subscriptions', 'subscriptions');
  return (
    <section>
      <h1>Event subscriptions</h1>
      <ul>
        {list.items.map((s) => (
          <li key={s.uid}>
            <a href={`/ui/events/${s.uid}`} aria-current={s.uid === selected ? 'page' : undefined}>
              {s.sink}
            </a>{' '}
            <span class="small">
              {s.signed ? 'signed' : 'unsigned'} · {when(s.createTime)}
            </span>
          </li>
        ))}
      </ul>
      {list.items.length === 0 && !list.loading && !list.error ? <p>No subscriptions.</p> : null}
      {list.pager}
      {selected ? <Deliveries subscription={selected} /> : null}
    </section>
  );
}
