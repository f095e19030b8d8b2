import { formatReais } from '../../src/money.js';

describe('formatReais', () => {
  it.each([
    [0, 'R$ 0,00'],
    [5, 'R$ 0,05'],
    [1234, 'R$ 12,34'],
    [123456, 'R$ 1.234,56'],
    [100000000, 'R$ 1.000.000,00'],
    [-5, '-R$ 0,05'],
  ])('formats %i cents as %s', (cents, text) => {
    expect(formatReais(cents)).toBe(text);
  });
});
