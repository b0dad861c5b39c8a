#version 330 core
// The environment behind the scene, sharp or blurred (a rougher level of
// the prefiltered cube map), exposed and tone mapped as the meshes are.
in vec2 vNDC;
out vec4 fragColor;

uniform mat4 uInvViewProj; // inverse of projection * rotation-only view
uniform samplerCube uEnvSpecular;
uniform float uLod;
uniform mat3 uEnvRotation; // world direction to the environment's
uniform float uExposure;

// Khronos PBR Neutral tone mapping.
vec3 toneMap(vec3 color) {
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < startCompression) return color;
    const float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(color, vec3(newPeak), g);
}

void main() {
    vec4 p = uInvViewProj * vec4(vNDC, 1.0, 1.0);
    vec3 d = normalize(p.xyz / p.w);
    vec3 c = textureLod(uEnvSpecular, uEnvRotation * d, uLod).rgb;
    c = toneMap(c * uExposure);
    fragColor = vec4(pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
