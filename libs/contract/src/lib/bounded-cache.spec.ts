import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('computes an answer once per key and keeps it, undefined included', () => {
    const cache = new BoundedCache<string, string | undefined>(10);
    const compute = jest.fn((key: string) => (key === 'none' ? undefined : key.toUpperCase()));
    for (let round = 0; round < 3; round += 1) {
      expect(cache.get('a', () => compute('a'))).toBe('A');
      expect(cache.get('none', () => compute('none'))).toBeUndefined();
    }
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('forgets everything once full, and keeps nothing for a computation that threw', () => {
    const cache = new BoundedCache<number, number>(2);
    cache.get(1, () => 1);
    cache.get(2, () => 2);
    expect(cache.size).toBe(2);
    cache.get(3, () => 3);
    expect(cache.size).toBe(1);
    expect(cache.get(1, () => 10)).toBe(10);
    expect(() =>
      cache.get(4, () => {
        throw new RangeError('no such zone');
      }),
    ).toThrow(RangeError);
    expect(cache.get(4, () => 4)).toBe(4);
  });
});
