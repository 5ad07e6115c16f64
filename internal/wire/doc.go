// Package wire reads the evidence of a provider's HTTP exchange that client
// libraries throw away: status, Retry-After and the other wait hints, the
// provider's error type, code and message, whether a stream's end marker
// arrived, and in-band error events. A [Transport] records it in the [Slot]
// the attempt's context carries ([WithSlot]); the adapters (package llms for
// langchaingo, module resilienteino for Eino) read the slot after the
// provider client returns and attach the evidence to the attempt's error.
//
// It knows no client library's types: only net/http and package taxonomy.
package wire
