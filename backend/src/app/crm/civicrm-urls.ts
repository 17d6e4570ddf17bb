import type { CrmConnection } from '../config/app-config';

/**
 * The only place that spells CiviCRM addresses. CMSs route the same paths differently
 * (docs/civicrm-wire-protocol.md, "Calls"): Drupal and Standalone take the path as is, WordPress and Joomla take it
 * as a query parameter.
 */
export class CiviCrmUrls {
  constructor(private readonly connection: Pick<CrmConnection, 'baseUrl' | 'urlStyle'>) {}

  api4(entity: string, action: string): string {
    return this.route(`civicrm/ajax/api4/${encodeURIComponent(entity)}/${encodeURIComponent(action)}`);
  }

  /** APIv4's batch endpoint: the calls travel in the form field `calls`. */
  api4Batch(): string {
    return this.route('civicrm/ajax/api4');
  }

  api3(): string {
    return this.route('civicrm/ajax/rest');
  }

  /** The bare file address staff fall back to (docs/product-rules.md, "Staff report", rule 7). */
  file(id: number): string {
    return this.route('civicrm/file', { reset: '1', id: String(id) });
  }

  private route(path: string, query: Record<string, string> = {}): string {
    const base = this.connection.baseUrl;
    const extra = new URLSearchParams(query).toString();
    switch (this.connection.urlStyle) {
      case 'standard':
        return `${base}/${path}${extra ? `?${extra}` : ''}`;
      case 'wordpress':
        return `${base}/?${new URLSearchParams({ civiwp: 'CiviCRM', q: path, ...query }).toString()}`;
      case 'joomla':
        return `${base}/index.php?${new URLSearchParams({ option: 'com_civicrm', task: path, ...query }).toString()}`;
    }
  }
}

/** Appends query parameters to an address that may already have some. */
export function withQuery(url: string, query: Record<string, string>): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}${new URLSearchParams(query).toString()}`;
}
