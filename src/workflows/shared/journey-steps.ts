import type { UpdateDefinition } from '@temporalio/common';
import { condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { EventInbox, type WebhookCounters } from './event-inbox.js';
import { MerchantReplies, type KeptReplies } from './merchant-requests.js';
import { publishToMemo, type MemoEntry } from './published-memo.js';
import { SearchAttributesPublisher, type KeywordValue } from './search-attributes-publisher.js';
import { checkStartTerms, type StartTerms } from './start-terms.js';

/**
 * What the payment and enrollment journeys share: the webhooks they heard, the answers they keep, and how they
 * publish where they stand — in the memo for the merchant, in search attributes and current details for support
 * staff. Each journey says what it publishes.
 */
export abstract class JourneySteps<Journey extends { state: WebhookCounters }, Start> {
  protected readonly inbox = new EventInbox();
  readonly replies: MerchantReplies<Start>;
  private readonly searchAttributesPublisher = new SearchAttributesPublisher();
  /** Webhooks that asked the workflow to read the bank's record. */
  protected hints = 0;

  protected constructor(
    readonly journey: Journey,
    kept: KeptReplies<Start> | undefined,
  ) {
    this.replies = new MerchantReplies<Start>(() => this.publishToCallers(), kept);
  }

  /**
   * Answers the update every start sends (update-with-start) once the journey has its start's answer; the validator
   * refuses a start with other terms than the first, naming none of `sensitiveTerms`' values.
   */
  answerStarts(update: UpdateDefinition<Start, [StartTerms]>, sensitiveTerms: readonly string[] = []): void {
    setHandler(
      update,
      async () => {
        await condition(() => this.replies.startReply !== undefined);
        return this.replies.startAnswer();
      },
      { validator: (terms) => checkStartTerms(terms, sensitiveTerms) },
    );
  }

  /** The memo entries the merchant reads besides the replies (starter/published.ts). */
  protected abstract memoEntries(): MemoEntry[];
  /** The search attributes support staff find the journey by. */
  protected abstract searchAttributeValues(): KeywordValue[];
  /** The paragraphs of the journey's current details in the Temporal UI. */
  protected abstract details(): string[];

  /** What the merchant reads. */
  protected publishToCallers(): void {
    publishToMemo([...this.memoEntries(), this.replies.memoEntry()]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  publish(): void {
    this.publishToCallers();
    this.searchAttributesPublisher.publish(this.searchAttributeValues());
    setCurrentDetails(this.details().join('\n\n'));
  }
}
