/** Staff report payload types (GET /api/staff/report). */
export {};
