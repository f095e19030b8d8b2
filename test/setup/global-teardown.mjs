import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { stopTemporal } = await tsImport('./stop-temporal.ts', import.meta.url);
  await stopTemporal();
}
