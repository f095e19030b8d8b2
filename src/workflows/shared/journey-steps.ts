import { setCurrentDetails } from '@temporalio/workflow';
import { EventInbox, type WebhookCounters } from './event-inbox.js';
import { MerchantReplies, type KeptReplies } from './merchant-requests.js';
import { publishToMemo, type MemoEntry } from './published-memo.js';
import { SearchAttributesPublisher, type KeywordValue } from './search-attributes-publisher.js';

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

  /** The answer to the call that started the workflow, as its start update returns it. */
  startAnswer(): Start {
    return this.replies.startAnswer();
  }

  /** Whether the start has its answer (or its refusal). */
  get startAnswered(): boolean {
    return this.replies.startReply !== undefined;
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
