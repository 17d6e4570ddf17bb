import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { Errors } from '../errors/app-error';

/** No request of this service nests deeper than a few levels; 32 leaves ample room. */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses a JSON body nested deeper than MAX_BODY_DEPTH before any validation runs:
 * class-transformer walks bodies recursively, and a body of ten thousand nested arrays would
 * overflow its stack. The depth is measured without recursion, so this check cannot.
 */
@Injectable()
export class BodyDepthPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body' && depthExceeds(value, MAX_BODY_DEPTH)) {
      throw Errors.badRequest(`The request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`);
    }
    return value;
  }
}

export function depthExceeds(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return false;
}
