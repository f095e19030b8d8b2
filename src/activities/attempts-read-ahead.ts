import type { Page } from '../bank/pagination.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import type { AttemptsPageQuery } from '../contract/attempts-sync.js';

type AttemptsPage = Page<CollectionAttempt>;

/** A page as the reader hands it over: the bank's answer, or why there is none. */
export type PageRead = { page: AttemptsPage } | { error: unknown };

/**
 * The pages of one window from one cursor on, fetched one after another, each as soon as the one before it
 * has come, while the pages already fetched wait for their reader: at most `ahead` of them. The reader stops
 * after a page that fails, after the window's last page, and after `limit` pages, so one that knows how many
 * pages its caller takes fetches none it will not read.
 */
export class AttemptsPageReader {
  private readonly waiting: Promise<PageRead>[] = [];
  /** The query of the next page to fetch; undefined once the window or a failure ends the reading. */
  private nextQuery: AttemptsPageQuery | undefined;
  private fetching = false;
  private stopped = false;
  private fetched = 0;

  constructor(
    private readonly fetchPage: (query: AttemptsPageQuery) => Promise<AttemptsPage>,
    start: AttemptsPageQuery,
    private readonly ahead: number,
    private limit = Number.POSITIVE_INFINITY,
  ) {
    this.nextQuery = start;
    this.fill();
  }

  /**
   * The next page in order. Past the window's last page, past a failed one or once stopped there is none, and
   * asking for one is a mistake of the caller's, answered as an error.
   */
  read(): Promise<PageRead> {
    const next = this.waiting.shift();
    this.fill();
    return next ?? Promise.resolve({ error: new RangeError('the attempts page reader has no page left') });
  }

  /** Fetches nothing more; the pages fetched or in flight are still read. */
  fetchNoMore(): void {
    this.limit = this.fetched;
  }

  /** Whether a page fetched or in flight waits to be read. */
  get holdsPage(): boolean {
    return this.waiting.length > 0;
  }

  /** Fetches nothing more; what is in flight finishes unread. */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
  }

  private fill(): void {
    const query = this.nextQuery;
    if (this.fetching || this.stopped || !query || this.waiting.length >= this.ahead) return;
    if (this.fetched >= this.limit) return;
    this.fetched++;
    this.fetching = true;
    const read = this.fetchPage(query).then(
      (page): PageRead => {
        this.nextQuery = page.metadata.has_next
          ? { ...query, after: page.metadata.after ?? undefined }
          : undefined;
        return { page };
      },
      (error: unknown): PageRead => {
        this.nextQuery = undefined;
        return { error };
      },
    );
    this.waiting.push(read);
    void read.then(() => {
      this.fetching = false;
      this.fill();
    });
  }
}
