// The lifecycle status of one tag, from its stream's dates, today, whether the
// repo has more than one release track, and when the tag last moved. The
// rules (docs/vulnerabilities.md, "EOL tags"): a grace period of 6 months
// after the stream's EOL date, for streams with release and EOL dates in a
// repo with several tracks; a tag that has not moved since before its EOL
// date (it was not rebuilt) has its grace ended (GRACE_BROKEN).
import { EolGracePeriodStatus, EolTagStatus } from '../../gen/berth/registry/v1/registry_pb.js';

export const GRACE_MONTHS = 6;

export interface StreamDates {
  /** YYYY-MM-DD or ''. */
  releaseDate: string;
  /** YYYY-MM-DD or ''. */
  eolDate: string;
  /** Upstream says EOL, possibly without a date. */
  eol: boolean;
}

export interface TagFacts {
  /** The tag's stream; undefined when unknown. */
  stream?: StreamDates;
  /** The tags of the tag's repo map to two or more streams. */
  multipleTracks: boolean;
  /** When the tag's current digest was set (RFC 3339); undefined when there is no record. */
  lastMove?: string;
  /** Now, in milliseconds. */
  now: number;
}

export interface TagLifecycle {
  tagStatus: EolTagStatus;
  graceStatus: EolGracePeriodStatus;
  /** The end of the grace period, YYYY-MM-DD; '' when not eligible. */
  graceExpiry: string;
  /** The tag did not move since before its EOL date, which has passed. */
  broken: boolean;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `date` (YYYY-MM-DD) plus `months` calendar months, the day clamped to the month's last (Aug 31 + 6 → Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const m = DAY.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  const total = Number(m[1]) * 12 + (Number(m[2]) - 1) + months;
  const year = Math.floor(total / 12);
  const month = total % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(Number(m[3]), last);
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const startOf = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);

export function tagLifecycle(f: TagFacts): TagLifecycle {
  const s = f.stream;
  if (!s) return { tagStatus: EolTagStatus.TAG_ACTIVE, graceStatus: EolGracePeriodStatus.GRACE_NOT_ELIGIBLE, graceExpiry: '', broken: false };
  if (s.eolDate === '') {
    const tagStatus = s.eol ? EolTagStatus.TAG_INACTIVE : EolTagStatus.TAG_ACTIVE;
    return { tagStatus, graceStatus: EolGracePeriodStatus.GRACE_NOT_ELIGIBLE, graceExpiry: '', broken: false };
  }
  const eolAt = startOf(s.eolDate);
  const expiry = addMonths(s.eolDate, GRACE_MONTHS);
  const expiryAt = startOf(expiry);
  const broken = f.now >= eolAt && f.lastMove !== undefined && Date.parse(f.lastMove) < eolAt;
  const eligible = s.releaseDate !== '' && f.multipleTracks;
  let tagStatus: EolTagStatus;
  if (f.now < eolAt) tagStatus = EolTagStatus.TAG_ACTIVE;
  else if (eligible && !broken && f.now < expiryAt) tagStatus = EolTagStatus.TAG_IN_GRACE;
  else tagStatus = EolTagStatus.TAG_INACTIVE;
  let graceStatus: EolGracePeriodStatus;
  if (!eligible) graceStatus = EolGracePeriodStatus.GRACE_NOT_ELIGIBLE;
  else if (f.now < eolAt) graceStatus = EolGracePeriodStatus.GRACE_ELIGIBLE;
  else if (f.now >= expiryAt) graceStatus = EolGracePeriodStatus.GRACE_EXPIRED;
  else if (broken) graceStatus = EolGracePeriodStatus.GRACE_BROKEN;
  else graceStatus = EolGracePeriodStatus.GRACE_ACTIVE;
  return { tagStatus, graceStatus, graceExpiry: eligible ? expiry : '', broken };
}
