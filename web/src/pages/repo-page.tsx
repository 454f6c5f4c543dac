// A repository: its readme, its tags (digest, size, platforms) and, per tag,
// the timeline of the digests it pointed to (v1 ListTagHistory), newest first,
// each digest with a copy button for pinning.
import { useEffect, useState } from 'preact/hooks';
import { api, uidPath } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { ErrorMessage } from '../error-message.js';
import { bytes, shortDigest, when } from '../format.js';
import { usePagedList } from '../paged-list.js';
import { Readme } from '../readme.js';

interface Tag {
  uid: string;
  name: string;
  digest: string;
  updateTime?: string;
}

interface Platform {
  architecture: string;
  os: string;
  variant: string;
  digest: string;
  size: string;
}

function TagDetails({ repo, tag }: { repo: string; tag: Tag }) {
  const [platforms, setPlatforms] = useState<Platform[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api<{ platforms: Platform[] }>('GET', `/registry/v2/repos/${uidPath(repo)}/digests/${encodeURIComponent(tag.digest)}/platforms`).then(
      (r) => setPlatforms(r.platforms),
      setError,
    );
  }, [repo, tag.digest]);
  if (error) return <ErrorMessage error={error} />;
  if (!platforms) return <span>…</span>;
  const total = platforms.reduce((n, p) => n + Number(p.size), 0);
  return (
    <span>
      {bytes(total)} · {platforms.map((p) => [p.os, p.architecture, p.variant].filter(Boolean).join('/')).join(', ') || 'no platform'}
    </span>
  );
}

function History({ tag }: { tag: Tag }) {
  const [items, setItems] = useState<Array<{ updateTimestamp: string; digest: string }>>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api<{ items: Array<{ updateTimestamp: string; digest: string }> }>('GET', `/registry/v1/tags/${uidPath(tag.uid)}/history`).then(
      (r) => setItems([...r.items].sort((a, b) => b.updateTimestamp.localeCompare(a.updateTimestamp))),
      setError,
    );
  }, [tag.uid]);
  if (error) return <ErrorMessage error={error} />;
  if (!items) return <p>Loading the history…</p>;
  return (
    <ol class="timeline" aria-label={`Digest history of ${tag.name}`}>
      {items.map((h, i) => (
        <li key={`${h.updateTimestamp}-${i}`}>
          <time dateTime={h.updateTimestamp}>{when(h.updateTimestamp)}</time>
          <code class="digest">{h.digest}</code>
          <CopyButton text={h.digest} label={`Copy digest ${h.digest}`} />
          {i === 0 ? <span class="badge">current</span> : null}
        </li>
      ))}
    </ol>
  );
}

export function RepoPage({ uid }: { uid: string }) {
  const [repo, setRepo] = useState<{ name: string; description: string }>();
  const [readme, setReadme] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<string>('');
  useEffect(() => {
    api<{ name: string; description: string }>('GET', `/registry/v2/repos/${uidPath(uid)}`).then(setRepo, setError);
    api<{ content: string }>('GET', `/registry/v2/repos/${uidPath(uid)}/readme`).then(
      (r) => setReadme(r.content),
      () => setReadme(''),
    );
  }, [uid]);
  const tags = usePagedList<Tag>('/registry/v2/tags', 'tags', { 'uidp.childrenOf': uid });
  return (
    <section>
      <h1>{repo ? repo.name : 'Repository'}</h1>
      <ErrorMessage error={error} />
      {repo?.description ? <p>{repo.description}</p> : null}
      <h2>Readme</h2>
      {readme ? <Readme markdown={readme} /> : <p>No readme.</p>}
      <h2>Tags</h2>
      <ul class="tags">
        {tags.items.map((t) => (
          <li key={t.uid}>
            <div class="tag-row">
              <strong>{t.name}</strong>
              <a href={`/ui/repos/${uid}/digests/${t.digest}`} title={t.digest}>
                <code>{shortDigest(t.digest)}</code>
              </a>
              <CopyButton text={t.digest} label={`Copy digest of ${t.name}`} />
              <TagDetails repo={uid} tag={t} />
              <span class="small">{when(t.updateTime)}</span>
              <button type="button" aria-expanded={open === t.uid} onClick={() => setOpen(open === t.uid ? '' : t.uid)}>
                {open === t.uid ? 'Hide history' : 'History'}
              </button>
            </div>
            {open === t.uid ? <History tag={t} /> : null}
          </li>
        ))}
      </ul>
      {tags.items.length === 0 && !tags.loading && !tags.error ? <p>No tags.</p> : null}
      {tags.pager}
    </section>
  );
}
