import { startTestApp, TEST_ADMIN_KEY, TEST_STAFF_KEY, type TestApp, type TestAppOptions } from './test-app';

/** The headers that open the admin and staff routes of a test app. */
export const ADMIN_HEADERS = { 'X-Admin-Key': TEST_ADMIN_KEY };
export const STAFF_HEADERS = { 'X-Staff-Key': TEST_STAFF_KEY };

/**
 * One test app for the whole describe block it is called in: started before its tests, closed
 * after them, and (with `resetEmulator`) its emulator's data and calls put back before each test,
 * so every test starts from the seed data. The returned object stands for the app once started.
 */
export function sharedTestApp(options: TestAppOptions = {}, { resetEmulator = true } = {}): TestApp {
  let running: TestApp | undefined;
  const current = (): TestApp => {
    if (!running) throw new Error('the shared test app is used before its beforeAll started it');
    return running;
  };
  beforeAll(async () => {
    running = await startTestApp(options);
  });
  afterAll(() => current().close());
  if (resetEmulator) beforeEach(() => current().emulator.reset());
  return {
    get app() {
      return current().app;
    },
    get config() {
      return current().config;
    },
    get url() {
      return current().url;
    },
    get emulator() {
      return current().emulator;
    },
    get logs() {
      return current().logs;
    },
    get: (path, headers) => current().get(path, headers),
    post: (path, body, headers) => current().post(path, body, headers),
    close: () => current().close(),
  };
}

/** The error body every refusal answers with (docs/decisions.md, "Error bodies"), checked whole. */
export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
}

/** Expects `response` to be the refusal `expected`, with its whole error body. */
export async function expectErrorAnswer(response: Response, expected: ErrorAnswer): Promise<void> {
  expect(response.status).toBe(expected.status);
  expect(await response.json()).toEqual({
    statusCode: expected.status,
    code: expected.code,
    message: expected.message,
  });
}

/** Expects `response` to be the refusal `expected`, given before the service asked the CRM anything. */
export async function expectRefusedBeforeCrm(
  test: TestApp,
  response: Response,
  expected: ErrorAnswer,
): Promise<void> {
  await expectErrorAnswer(response, expected);
  expect(test.emulator.calls).toEqual([]);
}

export const ADMIN_KEY_INVALID: ErrorAnswer = {
  status: 401,
  code: 'ADMIN_KEY_INVALID',
  message: 'The admin key is missing or wrong.',
};
export const STAFF_KEY_INVALID: ErrorAnswer = {
  status: 401,
  code: 'STAFF_KEY_INVALID',
  message: 'The staff key is missing or wrong.',
};
