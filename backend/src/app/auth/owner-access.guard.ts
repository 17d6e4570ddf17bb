import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { OwnerLinkParams } from '@checkin/contract';
import type { Request } from 'express';
import { type OwnerAccess, OwnerAccessService } from './owner-access.service';

type OwnerRequest = Request & { ownerAccess?: OwnerAccess };

/**
 * The checksum guard for owner routes: the link's cid and cs (query string for reads, JSON body
 * for writes) must pass OwnerAccessService; the handler then receives the person and the one
 * organization it may touch through @Owner().
 */
@Injectable()
export class OwnerAccessGuard implements CanActivate {
  constructor(private readonly access: OwnerAccessService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OwnerRequest>();
    request.ownerAccess = await this.access.authorize(linkParams(request), clientAddress(request));
    return true;
  }
}

/** The authorized person and organization of an owner route. */
export const Owner = createParamDecorator((_: unknown, context: ExecutionContext): OwnerAccess => {
  const access = context.switchToHttp().getRequest<OwnerRequest>().ownerAccess;
  if (!access) throw new Error('@Owner() used on a route without OwnerAccessGuard');
  return access;
});

export function linkParams(request: Request): Partial<OwnerLinkParams> {
  // HEAD is a GET without the body (Express routes it to the GET handler): same link, same answer.
  const source: unknown =
    request.method === 'GET' || request.method === 'HEAD' ? request.query : request.body;
  if (typeof source !== 'object' || source === null) return {};
  const fields = source as Record<string, unknown>;
  return {
    cid: asText(fields['cid']),
    cs: asText(fields['cs']),
    contactId: asText(fields['contactId']),
    orgId: asText(fields['orgId']),
  };
}

/** Query values can be arrays (?cid=1&cid=2) and body values numbers: keep one string or none. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The caller's address as Express resolved it (honouring TRUST_PROXY_HOPS). */
export function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
