// Jest loads global setup with Node's own ESM loader, which cannot resolve the TypeScript sources' `.js`
// import specifiers; tsx can.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { startTemporal } = await tsImport('./start-temporal.ts', import.meta.url);
  await startTemporal();
}
