// Package sdktest drives the real Go SDKs of the model APIs through
// package resilienthttp against faultserver: openai-go v3 and
// anthropic-sdk-go with resilienthttp.Middleware, go-openai and
// google.golang.org/genai with resilienthttp.Transport. It is a module of
// its own because openai-go v3's go.mod asks for a newer Go than the root
// module's; it has no code but its tests.
package sdktest
