// The seed of bench/scale.ts, run in a child process of its own (so the load
// generator never loads a database driver): groups, repos, their manifests,
// tags and tag history written into a PostgreSQL database Berth has already
// migrated and started once (its organization exists), each table in one
// INSERT … SELECT over generate_series inside the server: no row crosses the
// wire, which is faster than COPY from a client, and the rows are those
// Berth's writers write (group-writer, repo-writer, put-manifest, tag-writer):
// uids are the parent's uid plus 16 hex characters, names pass the name
// rules, times are in the stored form (RFC 3339 UTC, milliseconds), every tag
// points at a manifest its repo holds and its digest is the last one its
// history recorded, a manifest's bytes hash to its digest and its blobs are
// linked to the repo. Not written: the outbox events and audit entries of the
// creations (a log the delivery worker drains), scan jobs, blob bytes.
//
// The big tables' secondary indexes are dropped before and built again after
// (as a bulk load does; the same definitions, read from pg_indexes), and
// foreign keys are not checked row by row (session_replication_role): they
// are checked once at the end by anti-joins instead, which fail the seed.
// Usage (by scale.ts): node dist/bench/scale-seed.js <postgres URL> <org uid> <repos> <moves>
import { createHash } from 'node:crypto';
import pg from 'pg';

const [url, org, reposArg, movesArg] = process.argv.slice(2);
const REPOS = Number(reposArg);
const MOVES = Number(movesArg);
const GROUPS = Math.max(4, Math.round(REPOS / 100)); // 10,000 at 1,000,000 repos
const TEAMS = Math.round(Math.sqrt(GROUPS));
const PROJECTS_PER_TEAM = Math.floor(GROUPS / TEAMS) - 1; // teams + projects = GROUPS (at a square)
const PROJECTS = TEAMS * PROJECTS_PER_TEAM;
const TAGS_PER_REPO = 10;
const BIG_TABLES = ['repos', 'tags', 'tag_history', 'manifests', 'manifest_refs', 'repo_blobs'];

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** An image manifest and its config and layer, as a push would store them. */
function image(variant: number) {
  const layer = Buffer.from(`scale bench layer ${variant}`);
  const layerDigest = sha256(layer);
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [layerDigest] }, config: {} }));
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: layerDigest, size: layer.length }],
    }),
  );
  return { manifest, digest: sha256(manifest), config: { digest: sha256(config), size: config.length }, layer: { digest: layerDigest, size: layer.length } };
}

// Times in the stored form: row i of a series at base + i seconds.
const at = (base: string, i: string) => `to_char(timestamp '${base}' + (${i}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function main() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = async (label: string, text: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const r = await client.query(text, params);
    console.log(`  ${label}: ${r.rowCount ?? ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return r;
  };
  const t0 = performance.now();
  await client.query("set session_replication_role = 'replica'"); // foreign keys checked at the end, at once
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query('set synchronous_commit = off');

  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `select i.indexname, i.indexdef from pg_indexes i
        where i.schemaname = 'public' and i.tablename = any($1)
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      [BIG_TABLES],
    )
  ).rows;
  for (const i of indexes) await client.query(`drop index ${i.indexname}`);

  // Groups: teams under the organization, projects under each team.
  await q(
    'teams',
    `insert into groups (uid, parent_uid, name, description, verified, create_time, update_time)
     select $1 || '/' || substr(md5('team ' || t), 1, 16), $1, 'team-' || t, '', 0, ${at('2024-01-01', 't')}, ${at('2024-01-01', 't')}
       from generate_series(0, $2 - 1) t`,
    [org, TEAMS],
  );
  await client.query('create temp table projects (n integer primary key, uid text collate "C" not null)');
  await q(
    'projects',
    `with p as (
       select t * $3 + k as n, $1 || '/' || substr(md5('team ' || t), 1, 16) as team, k, t
         from generate_series(0, $2 - 1) t, generate_series(0, $3 - 1) k)
     insert into projects select n, team || '/' || substr(md5('project ' || n), 1, 16) from p`,
    [org, TEAMS, PROJECTS_PER_TEAM],
  );
  await q(
    'project groups',
    `insert into groups (uid, parent_uid, name, description, verified, create_time, update_time)
     select uid, substr(uid, 1, length(uid) - 17), 'project-' || n, '', 0, ${at('2024-02-01', 'n')}, ${at('2024-02-01', 'n')} from projects`,
  );

  // Repos: round robin over the projects, so a team holds 1/TEAMS of them.
  await q(
    'repos',
    `insert into repos (uid, parent_uid, name, description, readme, create_time, update_time)
     select p.uid || '/' || substr(md5('repo ' || i), 1, 16), p.uid, 'repo-' || lpad(i::text, 7, '0'), 'seeded', '',
            ${at('2025-01-01', 'i')}, ${at('2025-01-01', 'i')}
       from generate_series(0, $1 - 1) i join projects p on p.n = i % $2`,
    [REPOS, PROJECTS],
  );

  // One image in every repo (the same bytes: the same image pushed to each), a second in the repo of the moving tag.
  const a = image(1);
  const b = image(2);
  const blobs = [a.config, a.layer, b.config, b.layer];
  for (const x of blobs) await client.query(`insert into blobs (digest, size, create_time) values ($1, $2, '2024-12-31T00:00:00.000Z')`, [x.digest, x.size]);
  const MOVING_REPO = `repo-${String(Math.floor(REPOS / 2)).padStart(7, '0')}`;
  const movingUid = (await client.query<{ uid: string }>('select uid from repos where name = $1', [MOVING_REPO])).rows[0].uid;
  const movingRepo = `'${movingUid}'`; // a uid: hex and '/' only
  for (const [img, where] of [
    [a, 'true'],
    [b, `uid = ${movingRepo}`],
  ] as const) {
    await q(
      `manifests ${img.digest.slice(7, 15)}`,
      `insert into manifests (repo_uid, digest, media_type, artifact_type, subject_digest, size, content, annotations, os, architecture, variant, create_time, push_time)
       select uid, $1, 'application/vnd.oci.image.manifest.v1+json', null, null, $2, $3, null, 'linux', 'amd64', null, create_time, create_time
         from repos where ${where}`,
      [img.digest, img.manifest.length, img.manifest],
    );
    await q(
      'manifest refs',
      `insert into manifest_refs (repo_uid, manifest_digest, position, child_digest, kind, media_type, size, os, architecture, variant)
       select r.uid, $1, x.position, x.digest, 'blob', x.media_type, x.size, null, null, null
         from repos r, (values (0, $2, 'application/vnd.oci.image.config.v1+json', $3::bigint), (1, $4, 'application/vnd.oci.image.layer.v1.tar', $5::bigint))
              as x(position, digest, media_type, size)
        where ${where}`,
      [img.digest, img.config.digest, img.config.size, img.layer.digest, img.layer.size],
    );
    await q(
      'repo blobs',
      `insert into repo_blobs (repo_uid, digest, create_time, push_time)
       select r.uid, x.digest, r.create_time, r.create_time from repos r, (values ($1), ($2)) as x(digest) where ${where}`,
      [img.config.digest, img.layer.digest],
    );
  }

  // Tags: TAGS_PER_REPO per repo at the image, each created (one history record) a second after its repo.
  await q(
    'tags',
    `insert into tags (uid, parent_uid, name, digest, deprecated, create_time, update_time)
     select r.uid || '/' || substr(md5(r.uid || ' ' || k), 1, 16), r.uid, '1.' || k, $1, 0, t.time, t.time
       from repos r cross join generate_series(0, $2 - 1) k
            cross join lateral (select to_char(r.create_time::timestamp + interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as time) t`,
    [a.digest, TAGS_PER_REPO],
  );
  await q('tag history', `insert into tag_history (repo_uid, tag_name, digest, update_time) select parent_uid, name, digest, create_time from tags`);
  // The moving tag: MOVES moves between the two images, one a second, after everything else.
  await q(
    'moves',
    `insert into tag_history (repo_uid, tag_name, digest, update_time)
     select ${movingRepo}, '1.0', case when m % 2 = 0 then $1 else $2 end, ${at('2026-01-01', 'm')} from generate_series(0, $3 - 1) m`,
    [b.digest, a.digest, MOVES],
  );
  await q(
    'moving tag',
    `update tags set digest = h.digest, update_time = h.update_time
       from (select digest, update_time from tag_history where repo_uid = ${movingRepo} and tag_name = '1.0' order by id desc limit 1) h
      where parent_uid = ${movingRepo} and name = '1.0'`,
  );

  for (const i of indexes) await q(`index ${i.indexname}`, i.indexdef);
  await client.query("set session_replication_role = 'origin'");
  // Foreign keys, checked once: every row's parent exists.
  const orphans = await client.query(`select
      (select count(*) from groups g where g.parent_uid is not null and not exists (select 1 from groups p where p.uid = g.parent_uid)) as groups,
      (select count(*) from repos r where not exists (select 1 from groups g where g.uid = r.parent_uid)) as repos,
      (select count(*) from tags t where not exists (select 1 from repos r where r.uid = t.parent_uid)) as tags,
      (select count(*) from tag_history h where not exists (select 1 from repos r where r.uid = h.repo_uid)) as history,
      (select count(*) from tags t where not exists (select 1 from manifests m where m.repo_uid = t.parent_uid and m.digest = t.digest)) as untargeted`);
  const bad = Object.entries(orphans.rows[0]).filter(([, n]) => Number(n) !== 0);
  if (bad.length > 0) throw new Error(`seeded rows without their parent: ${JSON.stringify(orphans.rows[0])}`);
  // A write's version bump, once per table (the triggers did not run), so no cache keyed by version outlives the seed.
  await client.query(`update table_versions set version = version + 1 where table_name in ('groups', 'repos', 'tags')`);
  await q('vacuum analyze', 'vacuum analyze');
  await client.end();
  console.log(
    `seeded ${REPOS} repos in ${TEAMS + PROJECTS} groups, ${REPOS * TAGS_PER_REPO} tags, ${REPOS * TAGS_PER_REPO + MOVES} tag history rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

await main();
