import { AppError } from '../errors/app-error';
import { BodyDepthPipe, depthExceeds, MAX_BODY_DEPTH } from './body-depth.pipe';

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

describe('BodyDepthPipe', () => {
  const pipe = new BodyDepthPipe();

  it('lets ordinary bodies through unchanged', () => {
    const body = { cid: '102', values: { Organizing_focus: ['bulk'], Business_plan: { id: 7 } } };
    expect(pipe.transform(body, { type: 'body' })).toBe(body);
  });

  it('refuses a body nested beyond the limit with a 400, however deep it goes', () => {
    for (const depth of [MAX_BODY_DEPTH + 1, 100_000]) {
      try {
        pipe.transform(nestedArrays(depth), { type: 'body' });
        throw new Error('expected a refusal');
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).statusCode).toBe(400);
      }
    }
  });

  it('counts objects and arrays alike, and leaves other arguments alone', () => {
    expect(depthExceeds(nestedArrays(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(depthExceeds({ a: { b: { c: 1 } } }, 2)).toBe(true);
    expect(pipe.transform(nestedArrays(MAX_BODY_DEPTH + 5), { type: 'query' })).toBeDefined();
  });
});
