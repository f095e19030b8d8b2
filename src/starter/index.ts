export { cancelBoleto, type StarterContext } from './boletos.js';
export { InvalidInputError } from './errors.js';
