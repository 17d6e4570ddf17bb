/** The links page's suite serves the repository through the harness (tools/harness/static-server.cjs). */
export {
  type FixedResponse,
  type StaticServer,
  startStaticServer,
} from '../../tools/harness/static-server.cjs';
