// The PulseAudio simple API for capture, plus the async API used only to list sources.
#include <pulse/simple.h>
#include <pulse/error.h>
#include <pulse/pulseaudio.h>
