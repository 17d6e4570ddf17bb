import { loadAppConfig } from '../config/app-config';
import { FileReceipts, RECEIPT_TTL_SECONDS } from './file-receipts';

const receipts = new FileReceipts(loadAppConfig({}));
const subject = { contactId: 102, orgId: 201, field: 'Business_plan', fileId: 77 };
const ISSUED_AT = 1_800_000_000;

describe('FileReceipts', () => {
  const receipt = receipts.issue(subject, ISSUED_AT);

  it('vouches for exactly its subject until it expires', () => {
    expect(receipts.verify(subject, receipt, ISSUED_AT)).toBe(true);
    expect(receipts.verify(subject, receipt, ISSUED_AT + RECEIPT_TTL_SECONDS)).toBe(true);
    expect(receipts.verify({ ...subject, contactId: 103 }, receipt, ISSUED_AT)).toBe(false);
    expect(receipts.verify({ ...subject, fileId: 78 }, receipt, ISSUED_AT)).toBe(false);
  });

  it('is refused once expired, and its expiry cannot be moved', () => {
    expect(receipts.verify(subject, receipt, ISSUED_AT + RECEIPT_TTL_SECONDS + 1)).toBe(false);
    const [expires, mac] = receipt.split('.');
    const extended = `${Number(expires) + 86_400}.${mac}`;
    expect(receipts.verify(subject, extended, ISSUED_AT + RECEIPT_TTL_SECONDS + 1)).toBe(false);
    expect(receipts.verify(subject, mac, ISSUED_AT)).toBe(false);
  });
});
