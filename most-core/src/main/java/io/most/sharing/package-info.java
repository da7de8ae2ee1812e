/**
 * Several tenants on one machine's PM and block device, regulated as NyxCache does (thesis ch. 5,
 * FAST '22): per-tenant accounting in cost units, throttling, interference analysis, slowdown
 * estimation, and a controller enforcing one of four policies. JDK only.
 *
 * <p><b>Model.</b> A {@link io.most.sharing.SharedDevices} set names the shared
 * {@link io.most.device.EmulatedPm} (and optionally a block device with its
 * {@link io.most.device.DeviceProfile}); each {@link io.most.sharing.Tenant} that
 * {@linkplain io.most.sharing.SharedDevices#join joins} gets a {@link io.most.device.PmAccount} and a
 * block-device view whose accesses pass its {@link io.most.sharing.Throttle} and are charged
 * {@code 1 / MaxIOPS} of their kind and size, so use is measured as the share of the device it takes,
 * not in bytes. A {@link io.most.sharing.SharingController} runs one
 * {@link io.most.sharing.SharingPolicy} over the tenants of one {@link io.most.sharing.Resource}.
 *
 * <p><b>Opening a component as a tenant.</b> A cache or page store shares the set by doing every PM
 * access through {@code tenant.pm()} (instead of an account or device of its own), every block I/O
 * through {@code tenant.device()} (a {@link io.most.device.BlockDevice} it may wrap like any other and
 * whose {@code close()} leaves the shared device open), and by calling
 * {@link io.most.sharing.Tenant#recordRequest} once per request it serves, which gives QoS, fair
 * slowdown and proportional share the performance they steer by. Nothing else is needed: throttling
 * happens inside those calls, on the component's own threads. No component is wired this way yet
 * (docs/SHARING.md says what is missing).
 *
 * <p>Only the set, tenants, throttles, policies and controller are public; the mechanisms
 * ({@code Probe}) and the policy implementations are package-private.
 */
package io.most.sharing;
