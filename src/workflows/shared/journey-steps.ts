import type { UpdateDefinition } from '@temporalio/common';
import { condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { EventInbox, type WebhookCounters } from './event-inbox.js';
import { MerchantReplies, type KeptReplies } from './merchant-requests.js';
import { publishToMemo, type MemoEntry } from './published-memo.js';
import { SearchAttributesPublisher, type KeywordValue } from './search-attributes-publisher.js';
import { checkStartTerms, type StartTerms } from './start-terms.js';

/** What a journey publishes: memo entries the merchant reads, search attributes and current details for support. */
export interface JourneyPresentation<Journey> {
  /** The memo entries the merchant reads besides the replies (starter/published.ts). */
  memoEntries(journey: Journey): MemoEntry[];
  /** The search attributes support staff find the journey by. */
  searchAttributes(journey: Journey): KeywordValue[];
  /** The paragraphs of the journey's current details in the Temporal UI. */
  details(journey: Journey): string[];
}

/**
 * What the payment and enrollment journeys share: the webhooks they heard, the answers they keep, and how they
 * publish where they stand — in the memo for the merchant, in search attributes and current details for support
 * staff. Each journey says what it publishes (its `JourneyPresentation`).
 */
export class JourneySteps<Journey extends { state: WebhookCounters }, Start> {
  protected readonly inbox = new EventInbox();
  readonly replies: MerchantReplies<Start>;
  private readonly searchAttributesPublisher = new SearchAttributesPublisher();

  protected constructor(
    readonly journey: Journey,
    kept: KeptReplies<Start> | undefined,
    private readonly presentation: JourneyPresentation<Journey>,
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

  /** What the merchant reads. */
  protected publishToCallers(): void {
    publishToMemo([...this.presentation.memoEntries(this.journey), this.replies.memoEntry()]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  publish(): void {
    this.publishToCallers();
    this.searchAttributesPublisher.publish(this.presentation.searchAttributes(this.journey));
    this.showDetails();
  }

  /** What support staff see in the Temporal UI: current details cost the history nothing. */
  protected showDetails(): void {
    setCurrentDetails(this.presentation.details(this.journey).join('\n\n'));
  }
}
