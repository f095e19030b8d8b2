import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface StaticAsset {
  body: Buffer;
  contentType: string;
}

/**
 * Reads a folder's page files once, at start: a missing file stops the server from starting instead of a page
 * from loading. The build copies these files next to the compiled modules (scripts/copy-assets.mjs).
 */
export function loadAssets(folder: URL, names: readonly string[]): Map<string, StaticAsset> {
  const directory = fileURLToPath(folder);
  return new Map(
    names.map((name) => {
      const contentType = contentTypes[path.extname(name)];
      if (!contentType) throw new Error(`no content type for page file ${name}`);
      return [name, { body: readFileSync(path.join(directory, name)), contentType }];
    }),
  );
}

/** Page files change with the code, so browsers revalidate them instead of running a stale script. */
export function sendAsset(reply: FastifyReply, asset: StaticAsset): FastifyReply {
  return reply.type(asset.contentType).header('cache-control', 'no-cache').send(asset.body);
}
