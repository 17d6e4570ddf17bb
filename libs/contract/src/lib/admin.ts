/** Admin and health payload types (POST /api/preview-link, /api/health). */
export {};
