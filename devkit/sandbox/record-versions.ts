/** Versions kept per record; past it, the two oldest merge (see `trim`). */
const maxVersionsPerRecord = 32;

interface Version<T> {
  /** Epoch ms from which this content held. */
  since: number;
  record: T;
}

/**
 * Past contents of the records of one kind, so the bank's reads can lag behind its writes (`get_lag_ms`): a
 * read answers the newest version at least `lagMs` old. A record never noted here is seeded data, the same
 * since always.
 */
export class RecordVersions<T> {
  private readonly versions = new Map<string, Version<T>[]>();

  /** A new record: before now it did not exist. */
  created(id: string, record: T): void {
    this.versions.set(id, [{ since: Date.now(), record: structuredClone(record) }]);
  }

  /**
   * `record` has just changed. `before` is its content until now, needed only the first time a seeded record
   * changes (it then held since always).
   */
  changed(id: string, record: T, before?: T): void {
    const versions = this.versions.get(id) ?? (before ? [{ since: 0, record: structuredClone(before) }] : []);
    versions.push({ since: Date.now(), record: structuredClone(record) });
    this.versions.set(id, trim(versions));
  }

  /** `current` as it was `lagMs` ago; undefined when it did not exist yet. */
  asOf(id: string, current: T, lagMs: number): T | undefined {
    const versions = this.versions.get(id);
    if (lagMs <= 0 || !versions) return current;
    const cutoff = Date.now() - lagMs;
    const index = versions.filter((version) => version.since <= cutoff).length - 1;
    if (index < 0) return undefined;
    return index === versions.length - 1 ? current : structuredClone(versions[index]?.record);
  }

  clear(): void {
    this.versions.clear();
  }
}

/**
 * Bounds a record's history. The second-oldest content takes the oldest one's start, so a record changed very
 * often may read as newer than it was, never as older, and never as existing before it was created.
 */
function trim<T>(versions: Version<T>[]): Version<T>[] {
  while (versions.length > maxVersionsPerRecord) {
    const [oldest, next] = versions;
    if (!oldest || !next) break;
    next.since = oldest.since;
    versions.shift();
  }
  return versions;
}
