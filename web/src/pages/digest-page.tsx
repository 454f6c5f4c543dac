// An image digest: its platforms and sizes, the referrers attached to it
// (signature and SBOM tags named sha256-<hex>…), its vulnerabilities by
// severity (v1 GetVulnReport) and its packages (v1 GetSbom). A report or SBOM
// not made yet shows the API's answer.
import { useEffect, useState } from 'preact/hooks';
import { api, uidPath, withQuery } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { ErrorMessage } from '../error-message.js';
import { bytes, shortDigest } from '../format.js';

interface Platform {
  architecture: string;
  os: string;
  variant: string;
  digest: string;
  size: string;
}
interface Pkg {
  name: string;
  version: string;
  license: string;
  purl: string;
}
interface Match {
  vulnerability: { id: string; displayId: string; severity: string; description: string };
  pkg?: Pkg;
}

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'UNKNOWN'];

function useGet<T>(path: string): { data?: T; error?: unknown } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  useEffect(() => {
    setState({});
    api<T>('GET', path).then(
      (data) => setState({ data }),
      (error: unknown) => setState({ error }),
    );
  }, [path]);
  return state;
}

export function DigestPage({ repo, digest }: { repo: string; digest: string }) {
  const base = `/registry/v1/repos/${uidPath(repo)}/digests/${encodeURIComponent(digest)}`;
  const platforms = useGet<{ platforms: Platform[] }>(`/registry/v2/repos/${uidPath(repo)}/digests/${encodeURIComponent(digest)}/platforms`);
  const hex = digest.replace(/^sha256:/, '');
  const referrers = useGet<{ tags: Array<{ uid: string; name: string; digest: string }> }>(
    withQuery('/registry/v2/tags', { 'uidp.childrenOf': repo, includeReferrers: true, pageSize: 200 }),
  );
  const report = useGet<{ vulnerabilityMatches: Match[] }>(`${base}/vulnreport`);
  const sbom = useGet<{ packages: Pkg[] }>(`${base}/sbom`);
  const refs = (referrers.data?.tags ?? []).filter((t) => t.name.startsWith(`sha256-${hex}`));
  const matches = report.data?.vulnerabilityMatches ?? [];
  return (
    <section>
      <h1>Image</h1>
      <p class="digest-line">
        <code class="digest">{digest}</code> <CopyButton text={digest} label="Copy this digest" />
      </p>
      <p>
        <a href={`/ui/repos/${repo}`}>Back to the repository</a>
      </p>
      <h2>Platforms</h2>
      <ErrorMessage error={platforms.error} />
      <table>
        <caption class="sr-only">Platforms of the image</caption>
        <thead>
          <tr>
            <th scope="col">Platform</th>
            <th scope="col">Manifest</th>
            <th scope="col">Size (config and layers)</th>
          </tr>
        </thead>
        <tbody>
          {(platforms.data?.platforms ?? []).map((p) => (
            <tr key={p.digest}>
              <td>{[p.os, p.architecture, p.variant].filter(Boolean).join('/')}</td>
              <td>
                <code title={p.digest}>{shortDigest(p.digest)}</code>
              </td>
              <td>{bytes(p.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Referrers</h2>
      <ErrorMessage error={referrers.error} />
      {refs.length === 0 ? <p>No signatures, attestations or SBOMs attached.</p> : null}
      <ul>
        {refs.map((t) => (
          <li key={t.uid}>
            {t.name} <code title={t.digest}>{shortDigest(t.digest)}</code>
          </li>
        ))}
      </ul>
      <h2>Vulnerabilities</h2>
      <ErrorMessage error={report.error} />
      {report.data ? (
        <>
          <ul class="severity-counts" aria-label="Vulnerabilities by severity">
            {SEVERITIES.map((s) => (
              <li key={s} class={`sev sev-${s.toLowerCase()}`}>
                {s.toLowerCase()}: {matches.filter((m) => m.vulnerability.severity === s).length}
              </li>
            ))}
          </ul>
          <table>
            <caption class="sr-only">Vulnerabilities</caption>
            <thead>
              <tr>
                <th scope="col">Vulnerability</th>
                <th scope="col">Severity</th>
                <th scope="col">Package</th>
              </tr>
            </thead>
            <tbody>
              {[...matches]
                .sort((a, b) => SEVERITIES.indexOf(a.vulnerability.severity) - SEVERITIES.indexOf(b.vulnerability.severity))
                .map((m, i) => (
                  <tr key={`${m.vulnerability.id}-${i}`}>
                    <td>{m.vulnerability.displayId || m.vulnerability.id}</td>
                    <td>{m.vulnerability.severity.toLowerCase()}</td>
                    <td>{m.pkg ? `${m.pkg.name} ${m.pkg.version}` : ''}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>Packages</h2>
      <ErrorMessage error={sbom.error} />
      {sbom.data ? (
        <table>
          <caption class="sr-only">Packages in the image</caption>
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col">Version</th>
              <th scope="col">License</th>
            </tr>
          </thead>
          <tbody>
            {sbom.data.packages.map((p, i) => (
              <tr key={`${p.purl}-${i}`}>
                <td>{p.name}</td>
                <td>{p.version}</td>
                <td>{p.license}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
