import { setCurrentDetails } from '@temporalio/workflow';
import { memoKeys } from '../../contract/memo.js';
import type { StartReply } from './merchant-requests.js';
import { publishToMemo, type MemoEntry } from './published-memo.js';
import { SearchAttributesPublisher, type KeywordValue } from './search-attributes-publisher.js';

/**
 * What a journey publishes: memo entries the merchant reads, search attributes and current details for
 * support.
 */
export interface JourneyPresentation<Journey> {
  /** The memo entries the merchant reads besides the start's answer (starter/published.ts). */
  memoEntries(journey: Journey): MemoEntry[];
  /** The search attributes support staff find the journey by. */
  searchAttributes(journey: Journey): KeywordValue[];
  /** The paragraphs of the journey's current details in the Temporal UI. */
  details(journey: Journey): string[];
}

/**
 * How the payment and enrollment journeys publish where they stand: in the memo for the merchant, in search
 * attributes and current details for support staff. Each upsert is a history event, so only changes are
 * written.
 */
export class JourneyPublication<Journey, Start> {
  private readonly searchAttributes = new SearchAttributesPublisher();

  constructor(
    private readonly journey: Journey,
    private readonly startReply: StartReply<Start>,
    private readonly presentation: JourneyPresentation<Journey>,
  ) {}

  /** What the merchant reads. */
  toCallers(): void {
    const replies = { key: memoKeys.replies, value: this.startReply.kept() };
    publishToMemo([...this.presentation.memoEntries(this.journey), replies]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  everywhere(): void {
    this.toCallers();
    this.searchAttributes.publish(this.presentation.searchAttributes(this.journey));
    this.details();
  }

  /** What support staff see in the Temporal UI: current details cost the history nothing. */
  details(): void {
    setCurrentDetails(this.presentation.details(this.journey).join('\n\n'));
  }
}
