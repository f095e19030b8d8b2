/** The Temporal UI page of a workflow, where support staff would look for it. */
export function workflowLink(uiUrl: string, namespace: string, workflowId: string): string {
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** The Temporal UI's workflow list filtered by a visibility query: a view support staff can save. */
export function workflowsQueryLink(uiUrl: string, namespace: string, query: string): string {
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
