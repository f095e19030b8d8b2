import type { Participant } from '../../../src/bank/schemas/participant.js';
import type { SeededRandom } from './random.js';

interface Institution {
  name: string;
  slug: string;
  ispb: string;
  /** Disabled by the bank's hourly synchronization as unstable. */
  unavailable?: boolean;
  /** Listed, but not accepting new biometric enrollments. */
  enrollmentClosed?: boolean;
}

/** Real Pix participants and their ISPB codes, so data looks like what the bank lists. */
const institutions: Institution[] = [
  { name: 'Banco do Brasil', slug: 'banco-do-brasil', ispb: '00000000' },
  { name: 'Itaú Unibanco', slug: 'itau', ispb: '60701190' },
  { name: 'Bradesco', slug: 'bradesco', ispb: '60746948' },
  { name: 'Caixa Econômica Federal', slug: 'caixa', ispb: '00360305' },
  { name: 'Santander', slug: 'santander', ispb: '90400888' },
  { name: 'Nubank', slug: 'nubank', ispb: '18236120' },
  { name: 'Banco Inter', slug: 'inter', ispb: '00416968' },
  { name: 'C6 Bank', slug: 'c6-bank', ispb: '31872495' },
  { name: 'BTG Pactual', slug: 'btg-pactual', ispb: '30306294' },
  { name: 'Sicoob', slug: 'sicoob', ispb: '02038232' },
  { name: 'Sicredi', slug: 'sicredi', ispb: '01181521', enrollmentClosed: true },
  { name: 'Banco Original', slug: 'original', ispb: '92894922', unavailable: true },
];

export function seedParticipants(random: SeededRandom): Participant[] {
  return institutions.map((institution) => ({
    id: random.uuid(),
    integration_id: random.uuid(),
    ispb: institution.ispb,
    name: institution.name,
    slug: institution.slug,
    avatar: `https://assets.sandbox.bankflow.local/participants/${institution.slug}.png`,
    status: institution.unavailable ? 'inactive' : 'active',
    is_enrollment_available: !institution.unavailable && !institution.enrollmentClosed,
    unavailable: institution.unavailable === true,
  }));
}
