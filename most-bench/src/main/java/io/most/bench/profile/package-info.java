/**
 * {@code profile}: measures a real device through a scratch file and maps the numbers to a device
 * profile that {@code run --hierarchy profile:FILE} emulates.
 */
package io.most.bench.profile;
