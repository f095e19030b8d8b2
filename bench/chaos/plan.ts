import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';

/**
 * What the customer does: pays (and the bank settles, fails or rejects by the sandbox's magic amounts: cents
 * ending in 91 fail, in 92 are rejected), or refuses the enrollment at the bank and never pays.
 */
export type JourneyKind = 'settles' | 'fails' | 'rejected' | 'enrollment-refused';

export interface JourneySpec {
  index: number;
  kind: JourneyKind;
  /** When the journey starts, from the start of the run. */
  startAtMs: number;
  fingerprint: string;
  /** The merchant's payment reference, also the workflow id `payment:<externalId>`. */
  externalId: string;
  amountCents: number;
}

export interface DisruptionPlan {
  temporalRestartAtMs: number;
  temporalDownMs: number;
  receiverRestartAtMs: number;
  receiverDownMs: number;
  syncStartAtMs: number;
  /**
   * When one worker is redeployed on a new build, which is then promoted to the deployment's current version.
   */
  deployAtMs: number;
  /**
   * After how many requests the merchant's notification endpoint stops listening, and for how long: counted
   * in requests, so it is down while notifications flow, whatever the run's size.
   */
  merchantDownAfterRequests: number;
  merchantDownMs: number;
  /** Pause before the first worker kill and between kills. */
  killGapMs: { min: number; max: number };
  /** How long a killed worker stays down before it is started again. */
  killDownMs: { min: number; max: number };
  /**
   * When every bank call starts being refused with 401 (a credential rotation at the bank), and for how long.
   */
  credentialRotationAtMs: number;
  credentialRotationMs: number;
  /**
   * When the journeys' reads start answering a status and members the spec does not list, and for how long.
   */
  schemaDriftAtMs: number;
  schemaDriftMs: number;
}

export interface ChaosPlan {
  /** Journeys start spread over this span; the one-off disruptions fall inside it. */
  arrivalSpanMs: number;
  journeys: JourneySpec[];
  disruptions: DisruptionPlan;
}

function kindFor(draw: number): JourneyKind {
  if (draw < 0.78) return 'settles';
  if (draw < 0.87) return 'fails';
  if (draw < 0.95) return 'rejected';
  return 'enrollment-refused';
}

function amountFor(kind: JourneyKind, reais: number, cents: number): number {
  const lastTwo =
    kind === 'fails' ? 91 : kind === 'rejected' ? 92 : cents === 91 || cents === 92 ? 90 : cents;
  return reais * 100 + lastTwo;
}

/**
 * The bank's own disruptions, drawn after the others so that adding them moved none of the earlier moments.
 * The credential rotation lasts a third to all of the arrival span (20 to 60 s at the default size): journeys
 * start, consent and are followed through it. The schema drift begins 2-5 s after it ended, since a call
 * refused 401 is answered before any alteration, and lasts a quarter to half of the span, while journeys are
 * still followed.
 */
function bankDisruptions(
  arrivalSpanMs: number,
  within: (from: number, to: number) => number,
  int: (min: number, max: number) => number,
) {
  const credentialRotationAtMs = within(0.15, 0.3);
  const credentialRotationMs = int(Math.round(arrivalSpanMs / 3), arrivalSpanMs);
  return {
    credentialRotationAtMs,
    credentialRotationMs,
    schemaDriftAtMs: credentialRotationAtMs + credentialRotationMs + int(2_000, 5_000),
    schemaDriftMs: int(Math.round(arrivalSpanMs / 4), Math.round(arrivalSpanMs / 2)),
  };
}

/** Every choice of the run, from the seed alone: the same seed replays the same journeys and disruptions. */
export function planChaos(seed: number, journeyCount: number): ChaosPlan {
  const arrivalSpanMs = Math.max(20_000, journeyCount * 300);
  const random = seededRandomFor(seed, 'chaos-journeys');
  const journeys = Array.from({ length: journeyCount }, (_, index): JourneySpec => {
    const kind = kindFor(random.next());
    return {
      index,
      kind,
      startAtMs: Math.floor(random.next() * arrivalSpanMs),
      fingerprint: `chaos-${seed}-${index}-${random.hex(12)}`,
      externalId: `chaos-${seed}-pay-${index}`,
      amountCents: amountFor(kind, random.int(1, 900), random.int(0, 99)),
    };
  }).sort((a, b) => a.startAtMs - b.startAtMs);

  const timing = seededRandomFor(seed, 'chaos-disruptions');
  const within = (from: number, to: number) =>
    Math.floor(arrivalSpanMs * (from + timing.next() * (to - from)));
  return {
    arrivalSpanMs,
    journeys,
    disruptions: {
      temporalRestartAtMs: within(0.3, 0.5),
      temporalDownMs: timing.int(1_000, 3_000),
      receiverRestartAtMs: within(0.6, 0.8),
      receiverDownMs: timing.int(1_000, 3_000),
      syncStartAtMs: within(0.2, 0.6),
      // Late enough that payments have started on the old build, early enough that many start on the new one
      // (which bundles its workflows at start, seconds to tens of seconds).
      deployAtMs: within(0.4, 0.6),
      merchantDownAfterRequests: timing.int(journeyCount, 2 * journeyCount),
      merchantDownMs: timing.int(10_000, 20_000),
      killGapMs: { min: 5_000, max: 12_000 },
      killDownMs: { min: 500, max: 3_000 },
      ...bankDisruptions(arrivalSpanMs, within, timing.int.bind(timing)),
    },
  };
}
