// Paging through the API's cursors: each page's nextPageToken is kept on a
// stack so "Previous" returns to the page before (keyset tokens only go
// forward). A change of the query (filters) starts again from page one.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type Query, withQuery } from './api.js';
import { ErrorMessage } from './error-message.js';

export interface Page<T> {
  items: T[];
  total?: string;
  reload: () => void;
  pager: preact.JSX.Element;
  error: unknown;
  loading: boolean;
}

export function usePagedList<T>(path: string | undefined, key: string, query: Query = {}, pageSize = 20): Page<T> {
  const [tokens, setTokens] = useState<string[]>(['']);
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState('');
  const [total, setTotal] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);
  const [generation, setGeneration] = useState(0);
  const queryKey = JSON.stringify(query);
  useEffect(() => setTokens(['']), [path, queryKey]);
  const pageToken = tokens[tokens.length - 1];
  useEffect(() => {
    if (!path) return;
    let live = true;
    setLoading(true);
    api<Record<string, unknown>>('GET', withQuery(path, { ...query, pageSize, pageToken }))
      .then((r) => {
        if (!live) return;
        setItems((r[key] as T[] | undefined) ?? []);
        setNext(typeof r.nextPageToken === 'string' ? r.nextPageToken : '');
        setTotal(r.totalCount === undefined ? undefined : String(r.totalCount));
        setError(undefined);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e);
        setItems([]);
        setNext('');
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, key, queryKey, pageToken, pageSize, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const pager = (
    <div class="pager">
      {error ? <ErrorMessage error={error} /> : null}
      <button type="button" disabled={tokens.length <= 1} onClick={() => setTokens((t) => t.slice(0, -1))}>
        Previous
      </button>
      <span>
        Page {tokens.length}
        {total !== undefined ? ` · ${total} in all` : ''}
      </span>
      <button type="button" disabled={!next} onClick={() => setTokens((t) => [...t, next])}>
        Next
      </button>
    </div>
  );
  return { items, total, reload, pager, error, loading };
}
