// The registry's tables. Tags and tag history belong to their repo (deleted
// with it); a repo belongs to its group (the group cannot go while it exists).
import type { Generated } from 'kysely';
import type { ResourceColumns } from '../store/database.js';

export interface ReposTable extends ResourceColumns {
  parent_uid: string;
  name: string;
  description: string;
  readme: string;
}

export interface TagsTable extends ResourceColumns {
  parent_uid: string;
  name: string;
  digest: string;
  deprecated: number;
}

export interface TagHistoryTable {
  id: Generated<number>;
  repo_uid: string;
  tag_name: string;
  digest: string;
  update_time: string;
}

declare module '../store/database.js' {
  interface Database {
    repos: ReposTable;
    tags: TagsTable;
    tag_history: TagHistoryTable;
  }
}
