/** The sandbox's /sandbox control API over HTTP, answering status and parsed body. */
export function sandboxControl(baseUrl: string) {
  const call = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return {
    get: <T = unknown>(path: string) => call<T>('GET', path),
    put: <T = unknown>(path: string, body: unknown) => call<T>('PUT', path, body),
    post: <T = unknown>(path: string, body: unknown) => call<T>('POST', path, body),
  };
}
