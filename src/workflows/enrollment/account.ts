import type { AccountInfo } from '../../bank/schemas/enrollment.js';
import type { SuggestedAccount } from '../../bank/schemas/enrollment-request.js';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Whether the account the bank authorized is the one the merchant suggested. The suggestion writes the check
 * digit inside `number` (`12345-6`) and the branch as `issuer`; the bank keeps `digit` apart.
 */
export function accountMatchesSuggestion(
  suggested: SuggestedAccount,
  authorized: AccountInfo | null,
): boolean {
  if (!authorized) return false;
  return (
    suggested.ispb === authorized.ispb &&
    digitsOf(suggested.issuer) === digitsOf(authorized.branch) &&
    digitsOf(suggested.number) === digitsOf(`${authorized.number}${authorized.digit}`)
  );
}
