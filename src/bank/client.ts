import type { Logger } from 'pino';
import type { BankConfig } from '../config.js';
import { BankHttp } from './http.js';
import { biometricsRequests } from './biometrics.js';
import type { BiometricPayment } from './schemas/biometric-payment.js';
import type { CreateBiometricPaymentRequest } from './schemas/biometric-payment-request.js';
import type { Device, DeviceRequest } from './schemas/device.js';
import type { Enrollment } from './schemas/enrollment.js';
import type { CreateEnrollmentRequest } from './schemas/enrollment-request.js';
import type { AuthorizePaymentRequest, PublicKeyOptions, RegisterCredentialRequest } from './schemas/fido.js';
import type { ParticipantListing } from './schemas/participant-listing.js';
import { dataListEndpoints, dataRequests } from './data-requests.js';
import { eachRecord, toPage, type Page } from './pagination.js';
import type { Card } from './schemas/card.js';
import type { CardInvoice, CurrentCardInvoiceQuery } from './schemas/card-invoice.js';
import type { CardPurchaseDocument, CardPurchaseQuery } from './schemas/card-purchase.js';
import type { CollectionAttempt, CollectionAttemptListQuery } from './schemas/collection-attempt.js';
import type { Metrics, MetricsQuery } from './schemas/metrics.js';
import type { GenerateRecurrenceRequest, Recurrence } from './schemas/recurrence.js';
import type { ReceivableRefund, RefundListQuery } from './schemas/refund.js';
import type { TransferDocument, TransferListQuery } from './schemas/transfer.js';
import { boletoSchema, type Boleto } from './schemas/boleto.js';
import { single } from './schemas/common.js';

const segment = (value: string) => encodeURIComponent(value);

/** One typed method per Banking API endpoint. Every failure is a BankError (see errors.ts). */
export class BankClient {
  private readonly http: BankHttp;

  constructor(config: BankConfig & { baseUrl: string }, logger: Logger) {
    this.http = new BankHttp(config, logger.child({ component: 'bank-client' }));
  }

  /** PUT /banking/cashin/boletos/{id}/cancel */
  async cancelBoleto(boletoId: string): Promise<Boleto> {
    const response = await this.http.request({
      operation: 'cancelBoleto',
      method: 'PUT',
      path: `/banking/cashin/boletos/${segment(boletoId)}/cancel`,
      route: '/banking/cashin/boletos/{boleto_id}/cancel',
      schema: single(boletoSchema),
    });
    return response.data;
  }

  /** GET /banking/cashout/transfer — one page. */
  async listTransfers(query: TransferListQuery): Promise<Page<TransferDocument>> {
    return toPage(await this.http.request(dataRequests.listTransfers(query)));
  }

  /** Every transfer document matching `query`, page after page. */
  listAllTransfers(query: TransferListQuery): AsyncGenerator<TransferDocument, void, undefined> {
    return eachRecord(dataListEndpoints.transfers, query, (page) => this.listTransfers(page));
  }

  /** POST /banking/cashin/pix/recurrences — a repeated external_id answers the first recurrence. */
  async generateRecurrence(request: GenerateRecurrenceRequest): Promise<Recurrence> {
    return (await this.http.request(dataRequests.generateRecurrence(request))).data;
  }

  /** GET /banking/cashin/pix/recurrences/collections/attempts — one page. */
  async listCollectionAttempts(query: CollectionAttemptListQuery = {}): Promise<Page<CollectionAttempt>> {
    return toPage(await this.http.request(dataRequests.listCollectionAttempts(query)));
  }

  /** Every collection attempt matching `query`, page after page. */
  listAllCollectionAttempts(
    query: CollectionAttemptListQuery = {},
  ): AsyncGenerator<CollectionAttempt, void, undefined> {
    return eachRecord(dataListEndpoints.collectionAttempts, query, (page) =>
      this.listCollectionAttempts(page),
    );
  }

  /** GET /banking/cashin/pix/recurrences/collections/attempts/{id} — with its stages. */
  async getCollectionAttempt(attemptId: string): Promise<CollectionAttempt> {
    return (await this.http.request(dataRequests.getCollectionAttempt(attemptId))).data;
  }

  /** GET /banking/cashin/refunds — one page. */
  async listReceivableRefunds(query: RefundListQuery = {}): Promise<Page<ReceivableRefund>> {
    return toPage(await this.http.request(dataRequests.listReceivableRefunds(query)));
  }

  /** Every receivable refund matching `query`, page after page. */
  listAllReceivableRefunds(query: RefundListQuery = {}): AsyncGenerator<ReceivableRefund, void, undefined> {
    return eachRecord(dataListEndpoints.receivableRefunds, query, (page) => this.listReceivableRefunds(page));
  }

  /** GET /banking/cards/{id} */
  async getCard(cardId: string): Promise<Card> {
    return (await this.http.request(dataRequests.getCard(cardId))).data;
  }

  /** GET /banking/cards/purchases/e2e/{id} */
  async getCardPurchaseByEndToEndId(
    endToEndId: string,
    query: CardPurchaseQuery = {},
  ): Promise<CardPurchaseDocument> {
    return (await this.http.request(dataRequests.getCardPurchaseByEndToEndId(endToEndId, query))).data;
  }

  /** GET /banking/cards/invoices/current */
  async getCurrentCardInvoice(query: CurrentCardInvoiceQuery): Promise<CardInvoice> {
    return (await this.http.request(dataRequests.getCurrentCardInvoice(query))).data;
  }

  /** GET /banking/metric */
  async getMetrics(query: MetricsQuery): Promise<Metrics> {
    return (await this.http.request(dataRequests.getMetrics(query))).data;
  }

  /** POST /biometrics/devices — the device with the same fingerprint and tax number when one exists. */
  async findOrCreateDevice(request: DeviceRequest): Promise<Device> {
    return (await this.http.request(biometricsRequests.findOrCreateDevice(request))).data;
  }

  /** GET /biometrics/participants — with `device_id`, enrolled participants first. */
  async listParticipants(query: { device_id?: string } = {}): Promise<Page<ParticipantListing>> {
    return toPage(await this.http.request(biometricsRequests.listParticipants(query)));
  }

  /** POST /banking/cashin/pix/biometrics/enrollments — a repeated external_id answers the first enrollment. */
  async createEnrollment(request: CreateEnrollmentRequest): Promise<Enrollment> {
    return (await this.http.request(biometricsRequests.createEnrollment(request))).data;
  }

  /** GET /banking/cashin/pix/biometrics/enrollments?device_id= */
  async listEnrollments(query: { device_id: string }): Promise<Page<Enrollment>> {
    return toPage(await this.http.request(biometricsRequests.listEnrollments(query)));
  }

  /** GET /biometrics/enrollments/{enrollment_id}/credentials — WebAuthn creation options. */
  async getRegistrationOptions(enrollmentId: string): Promise<PublicKeyOptions> {
    return (await this.http.request(biometricsRequests.getRegistrationOptions(enrollmentId))).data;
  }

  /** POST .../enrollments/{enrollment_id}/register */
  async registerCredential(enrollmentId: string, request: RegisterCredentialRequest): Promise<Enrollment> {
    return (await this.http.request(biometricsRequests.registerCredential(enrollmentId, request))).data;
  }

  /** POST .../enrollments/{enrollment_id}/payments — a repeated external_id answers the first payment. */
  async createBiometricPayment(
    enrollmentId: string,
    request: CreateBiometricPaymentRequest,
  ): Promise<BiometricPayment> {
    return (await this.http.request(biometricsRequests.createBiometricPayment(enrollmentId, request))).data;
  }

  /** GET .../enrollments/{enrollment_id}/payments/{payment_id} */
  async getBiometricPayment(enrollmentId: string, paymentId: string): Promise<BiometricPayment> {
    return (await this.http.request(biometricsRequests.getBiometricPayment(enrollmentId, paymentId))).data;
  }

  /** GET .../payments/{payment_id}/credentials — WebAuthn request options for the widget. */
  async getPaymentAuthorizationOptions(enrollmentId: string, paymentId: string): Promise<PublicKeyOptions> {
    return (
      await this.http.request(biometricsRequests.getPaymentAuthorizationOptions(enrollmentId, paymentId))
    ).data;
  }

  /** POST .../payments/{payment_id}/authorize */
  async authorizeBiometricPayment(
    enrollmentId: string,
    paymentId: string,
    request: AuthorizePaymentRequest,
  ): Promise<BiometricPayment> {
    return (
      await this.http.request(biometricsRequests.authorizeBiometricPayment(enrollmentId, paymentId, request))
    ).data;
  }
}
