export interface StaticServer {
  /** Base URL with a trailing slash, e.g. http://127.0.0.1:41234/ */
  url: string;
  close(): Promise<void>;
}

/** A fixed answer for one path, served instead of a file. */
export interface FixedResponse {
  contentType: string;
  body: string;
}

export declare function startStaticServer(
  root: string,
  fixed?: Record<string, FixedResponse>,
): Promise<StaticServer>;
