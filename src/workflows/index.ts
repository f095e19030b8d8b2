export { cancelBoletoWorkflow } from './boleto-cancel.js';
