import type { FastifyInstance } from 'fastify';
import { findEnrollment, Refusal, type BiometricsContext } from '../biometrics/context.js';
import { hostedPageUrl, registrationPagePath } from '../page-urls.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Where an enrollment's redirect_url sends the customer: the participant's "authorize this enrollment"
 * screen. Its buttons call the control API, as a test or the demo does directly; once authorized, the
 * customer goes on to the hosted registration page.
 */
export function bankAuthorizationPageRoutes(app: FastifyInstance, context: BiometricsContext): void {
  app.get<{ Params: { enrollmentId: string } }>(
    '/sandbox/bank-authorization/:enrollmentId',
    async (request, reply) => {
      const entry = findEnrollment(context, request.params.enrollmentId);
      if (entry instanceof Refusal) return entry.send(reply);
      const { participant } = context.state.biometrics.partiesOf(entry);
      const id = escapeHtml(entry.record.id);
      const control = `/sandbox/biometrics/enrollments/${id}`;
      const registration = escapeHtml(
        hostedPageUrl(
          `${request.protocol}://${request.host}`,
          context.webauthn.rpId,
          registrationPagePath(entry.record.id),
        ),
      );
      const html = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>${escapeHtml(participant.name)} — autorizar Pix por biometria</title></head>
<body>
<h1>${escapeHtml(participant.name)}</h1>
<p>Enrollment <code>${id}</code> is <strong id="status">${escapeHtml(entry.record.status)}</strong>.</p>
<button data-action="${control}/bank-authorization" data-next="${registration}">Authorize</button>
<button data-action="${control}/reject">Reject</button>
<script>
for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', async () => {
    const response = await fetch(button.dataset.action, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    });
    const body = await response.json();
    document.getElementById('status').textContent = body.data ? body.data.status : JSON.stringify(body);
    if (response.ok && button.dataset.next) location.assign(button.dataset.next);
  });
}
</script>
<p>Authorizing takes you to the registration of your biometrics; <a href="${escapeHtml(entry.returnToUrl)}">back to the store</a>.</p>
</body>
</html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );
}
