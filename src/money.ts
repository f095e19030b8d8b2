/**
 * Cents as Brazilian reais, as customers and support staff read them: `R$ 1.234,56`, `-R$ 0,05`. Written out
 * by hand rather than with Intl so that workflow code, which uses it in summaries, does not depend on the
 * locale data of the Node build.
 */
export function formatReais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.round(cents));
  const whole = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const fraction = (absolute % 100).toString().padStart(2, '0');
  return `${sign}R$ ${whole},${fraction}`;
}
