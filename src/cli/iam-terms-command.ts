// berth iam terms: accept the legal documents this server offers (its
// operator's --terms-file) for a group, and list the acceptances that hold
// for a group (its own and its ancestors').
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { resolveParent } from './name-resolution.js';
import { listAll } from './list-all.js';
import { printList, printOne, type Column } from './output.js';

interface Acceptance {
  docId?: string;
  orgUid?: string;
  acceptedBy?: string;
  createTime?: string;
}

// -o id prints the document ids.
const COLUMNS: readonly Column<Acceptance & { uid?: string }>[] = [
  { header: 'DOCUMENT', value: (a) => a.docId },
  { header: 'GROUP', value: (a) => a.orgUid },
  { header: 'ACCEPTED BY', value: (a) => a.acceptedBy },
  { header: 'ACCEPTED', value: (a) => a.createTime },
];

export function iamTermsCommand(iam: Command): void {
  const terms = iam
    .command('terms')
    .description("Accept this server's terms documents for a group, and list acceptances")
    .addHelpText('after', '\nExamples:\n  berth iam terms accept tos.v1\n  berth iam terms list --parent team-a');

  apiCommand(terms, 'accept <document...>', 'Accept documents (by id, e.g. tos.v1) for a group')
    .option('--parent <group>', 'group, uid or name (default: the organization)')
    .addHelpText('after', '\nExample:\n  berth iam terms accept tos.v1 dpa.v2 --parent team-a')
    .action(async (documents: string[], o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const group = await resolveParent(conn, o.parent);
      const r = await conn.client.call<{ group?: string; documentIds?: string[] }>('POST', `iam/v2/terms/${uidPath(group)}`, {
        body: { documentIds: documents },
      });
      printOne({ uid: r.group, ...r }, o.output, [
        { header: 'GROUP', value: (x) => x.group },
        { header: 'ACCEPTED', value: (x) => (x.documentIds ?? []).join(', ') },
      ]);
    });

  apiCommand(terms, 'list', "List the acceptances that hold for a group: its own and its ancestors' (all pages)")
    .option('--parent <group>', 'group, uid or name (default: the organization)')
    .addHelpText('after', '\nExample:\n  berth iam terms list --parent team-a')
    .action(async (o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const group = await resolveParent(conn, o.parent);
      const items = await listAll<Acceptance>(conn.client, `iam/v2/terms/${uidPath(group)}`, 'termsAcceptances');
      printList(
        items.map((a) => ({ uid: a.docId, ...a })),
        o.output,
        COLUMNS,
      );
    });
}
