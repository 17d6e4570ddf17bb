import { RecentResults } from './recent-results';

describe('RecentResults', () => {
  it('answers a finished key from memory without running the work again', async () => {
    const recent = new RecentResults<number>(10);
    const work = jest.fn(async () => 7);
    await expect(recent.run('a', work)).resolves.toBe(7);
    await expect(recent.run('a', work)).resolves.toBe(7);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('shares the running work with a second caller of the same key', async () => {
    const recent = new RecentResults<number>(10);
    let finish: (value: number) => void = () => undefined;
    const work = jest.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const first = recent.run('a', work);
    const second = recent.run('a', work);
    finish(3);
    await expect(Promise.all([first, second])).resolves.toEqual([3, 3]);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('forgets a failure, so a retry runs the work again', async () => {
    const recent = new RecentResults<number>(10);
    await expect(recent.run('a', async () => Promise.reject(new Error('CRM down')))).rejects.toThrow(
      'CRM down',
    );
    await expect(recent.run('a', async () => 5)).resolves.toBe(5);
  });

  it('keeps at most its capacity, dropping the oldest first', async () => {
    const recent = new RecentResults<string>(2);
    for (const key of ['a', 'b', 'c']) await recent.run(key, async () => key);
    const work = jest.fn(async () => 'again');
    await expect(recent.run('a', work)).resolves.toBe('again');
    await expect(recent.run('c', work)).resolves.toBe('c');
    expect(work).toHaveBeenCalledTimes(1);
  });
});
