module github.com/resilientgo/resilient/internal/tokencheck

go 1.25.0

replace github.com/resilientgo/resilient => ../..

require (
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/resilientgo/resilient v0.0.0-00010101000000-000000000000
	github.com/tmc/langchaingo v0.1.14
)

require (
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/failsafe-go/failsafe-go v0.9.8 // indirect
	github.com/google/uuid v1.6.0 // indirect
)
