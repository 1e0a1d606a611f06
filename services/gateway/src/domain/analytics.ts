import type { AnalyticsEvent } from '@productgen/contracts';
import { redactSensitiveQuery } from '@productgen/service-kit';

export interface RecordedEvent {
  name: string;
  /** `do.path` of a page view; null for events without one. */
  path: string | null;
  userId: string | null;
  receivedAt: string;
  data: Record<string, unknown>;
}

export interface AnalyticsStats {
  total: number;
  byEvent: Record<string, number>;
  byPath: Record<string, number>;
  /** Newest last. */
  recent: RecordedEvent[];
}

export interface AnalyticsLogOptions {
  /** How many events `recent` keeps. */
  recentLimit: number;
  /** Distinct names / paths counted one by one; the rest share OTHER_BUCKET, so junk cannot grow memory. */
  maxDistinctKeys?: number;
  now?: () => Date;
}

export const OTHER_BUCKET = '(other)';
const MAX_PATH_LENGTH = 300;
/** Event data kept (and logged) per event; a page view is a few hundred characters. */
const MAX_DATA_CHARS = 4096;

function boundedData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!data) return {};
  const size = JSON.stringify(data).length;
  return size <= MAX_DATA_CHARS ? withoutSensitiveParameters(data) : { truncated: true, size };
}

/**
 * The event's addresses (a page view's full_path and referrer, any other URL a front end sends) without the values
 * of sensitive query parameters: the page a buyer returns to from Stripe carries the checkout's session_id, and a
 * landing page the visitor's referral code (`?ref=`). They would otherwise sit in the log and in /internal/pst/stats.
 */
function withoutSensitiveParameters(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => [
      name,
      typeof value === 'string' && /[?#]/.test(value) ? redactSensitiveQuery(value) : value,
    ]),
  );
}

function pathOf(event: AnalyticsEvent): string | null {
  const path = event.do?.['path'];
  return typeof path === 'string' && path.length > 0 ? redactSensitiveQuery(path).slice(0, MAX_PATH_LENGTH) : null;
}

function countInto(counts: Map<string, number>, key: string, maxKeys: number): void {
  const bucket = counts.has(key) || counts.size < maxKeys ? key : OTHER_BUCKET;
  counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
}

/** The gateway's in-memory view of analytics events (page views and the like): recent ones and counts. */
export class AnalyticsLog {
  private readonly recent: RecordedEvent[] = [];
  private readonly byEvent = new Map<string, number>();
  private readonly byPath = new Map<string, number>();
  private total = 0;
  private readonly maxDistinctKeys: number;
  private readonly now: () => Date;

  constructor(private readonly options: AnalyticsLogOptions) {
    this.maxDistinctKeys = options.maxDistinctKeys ?? 1000;
    this.now = options.now ?? (() => new Date());
  }

  record(event: AnalyticsEvent, userId: string | undefined): RecordedEvent {
    const recorded: RecordedEvent = {
      name: event.en,
      path: pathOf(event),
      userId: userId ?? null,
      receivedAt: this.now().toISOString(),
      data: boundedData(event.do),
    };
    this.total += 1;
    countInto(this.byEvent, recorded.name, this.maxDistinctKeys);
    if (recorded.path !== null) countInto(this.byPath, recorded.path, this.maxDistinctKeys);
    this.recent.push(recorded);
    if (this.recent.length > this.options.recentLimit) this.recent.shift();
    return recorded;
  }

  stats(): AnalyticsStats {
    return {
      total: this.total,
      byEvent: Object.fromEntries(this.byEvent),
      byPath: Object.fromEntries(this.byPath),
      recent: [...this.recent],
    };
  }
}
