module github.com/resilientgo/resilient

go 1.25

require (
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/tmc/langchaingo v0.1.14
)

require (
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
	go.uber.org/goleak v1.3.0 // indirect
)
