import { HintLedger } from '../../src/workflows/shared/follow-bank.js';

type Status = 'awaiting_consent' | 'awaiting_payment' | 'settled';
const rank: Record<Status, number> = { awaiting_consent: 0, awaiting_payment: 1, settled: 2 };

/** A journey whose bank record is at `record.status`, and a ledger that asks only about steps beyond it. */
function journeyWith() {
  const record = { status: 'awaiting_consent' as Status };
  const hints = new HintLedger<Status>((step) => rank[step] > rank[record.status]);
  return { record, hints };
}

describe('hints kept across waits', () => {
  it('keeps a hint heard as one wait ends pending for the next wait, until a read answers it', () => {
    const { hints } = journeyWith();
    const consent = hints.forWait();
    hints.heard('settled');
    expect(consent.pending()).toBe(true);

    const following = hints.forWait();
    expect(following.pending()).toBe(true);
    following.asked();
    expect(following.pending()).toBe(false);
    expect(hints.forWait().pending()).toBe(false);
  });

  it('asks nothing about a hint the bank record already shows', () => {
    const { record, hints } = journeyWith();
    hints.heard('awaiting_payment');
    record.status = 'awaiting_payment';
    expect(hints.forWait().pending()).toBe(false);
    hints.heard('settled');
    expect(hints.forWait().pending()).toBe(true);
  });

  it('holds hints while a call whose answer is the bank record is under way', () => {
    const { hints } = journeyWith();
    let authorizing = true;
    const wait = hints.forWait(() => authorizing);
    hints.heard('settled');
    expect(wait.pending()).toBe(false);
    authorizing = false;
    expect(wait.pending()).toBe(true);
  });

  it('keeps a hint heard while a read is under way: the answer may predate it', () => {
    const { hints } = journeyWith();
    const wait = hints.forWait();
    hints.heard('awaiting_payment');
    wait.asked();
    hints.heard('settled');
    expect(wait.pending()).toBe(true);
  });
});
