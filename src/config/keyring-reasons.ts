/** Why the keyring failed on a machine with no desktop session: usual on servers and in CI. */
export const NO_SESSION_BUS = 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
