/** Every metric the portal exports starts with this, Node's process metrics included. */
export const metricPrefix = 'vms_portal_';
