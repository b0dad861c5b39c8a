#version 330 core
// PBR metallic-roughness (glTF 2.0 core material model): GGX specular,
// Lambert diffuse, up to 4 punctual lights and a sky/ground ambient term that
// stands in for image-based lighting, so metals are not black.
in vec3 vWorldPos;
in vec3 vNormal;
in vec4 vTangent;
in vec2 vUV0;
in vec2 vUV1;
in vec4 vColor;

out vec4 fragColor;

uniform vec4 uBaseColorFactor;
uniform float uMetallicFactor;
uniform float uRoughnessFactor;
uniform vec3 uEmissiveFactor;
uniform float uNormalScale;
uniform float uOcclusionStrength;
uniform int uAlphaMode;      // 0 opaque, 1 mask, 2 blend
uniform float uAlphaCutoff;
uniform bool uUnlit;

// Texture slots: 0 base colour, 1 metallic-roughness, 2 normal, 3 occlusion, 4 emissive.
uniform sampler2D uTex[5];
uniform bool uHasTex[5];
uniform int uTexCoord[5];
uniform mat3 uTexTransform[5];

uniform vec3 uCameraPos;
uniform int uLightCount;
uniform int uLightType[4];   // 0 directional, 1 point, 2 spot
uniform vec3 uLightColor[4]; // colour * intensity
uniform vec3 uLightPos[4];
uniform vec3 uLightDir[4];   // direction the light travels
uniform float uLightRange[4];
uniform vec2 uLightCone[4];  // cos(outer), cos(inner)
uniform vec3 uSkyColor;
uniform vec3 uGroundColor;
uniform float uExposure;

const float PI = 3.14159265359;

vec2 uvFor(int slot) {
    vec2 uv = uTexCoord[slot] == 1 ? vUV1 : vUV0;
    return (uTexTransform[slot] * vec3(uv, 1.0)).xy;
}

vec4 sampleTex(int slot) {
    // Sampler arrays may only be indexed with constants in GLSL 3.30.
    vec2 uv = uvFor(slot);
    if (slot == 0) return texture(uTex[0], uv);
    if (slot == 1) return texture(uTex[1], uv);
    if (slot == 2) return texture(uTex[2], uv);
    if (slot == 3) return texture(uTex[3], uv);
    return texture(uTex[4], uv);
}

float distributionGGX(float NdotH, float a) {
    float a2 = a * a;
    float d = NdotH * NdotH * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

float visibilitySmithGGX(float NdotL, float NdotV, float a) {
    float a2 = a * a;
    float gv = NdotL * sqrt(NdotV * NdotV * (1.0 - a2) + a2);
    float gl = NdotV * sqrt(NdotL * NdotL * (1.0 - a2) + a2);
    float s = gv + gl;
    return s > 0.0 ? 0.5 / s : 0.0;
}

vec3 fresnelSchlick(float VdotH, vec3 f0) {
    return f0 + (1.0 - f0) * pow(clamp(1.0 - VdotH, 0.0, 1.0), 5.0);
}

void main() {
    vec4 base = uBaseColorFactor * vColor;
    if (uHasTex[0]) base *= sampleTex(0);
    if (uAlphaMode == 1 && base.a < uAlphaCutoff) discard;
    if (uAlphaMode == 0) base.a = 1.0;

    if (uUnlit) {
        fragColor = vec4(pow(base.rgb, vec3(1.0 / 2.2)), base.a);
        return;
    }

    float metallic = uMetallicFactor;
    float roughness = uRoughnessFactor;
    if (uHasTex[1]) {
        vec4 mr = sampleTex(1);
        roughness *= mr.g;
        metallic *= mr.b;
    }
    roughness = clamp(roughness, 0.04, 1.0);
    metallic = clamp(metallic, 0.0, 1.0);

    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    if (uHasTex[2] && length(vTangent.xyz) > 0.5) {
        vec3 t = normalize(vTangent.xyz - n * dot(n, vTangent.xyz));
        vec3 b = cross(n, t) * (vTangent.w < 0.0 ? -1.0 : 1.0);
        vec3 tn = sampleTex(2).xyz * 2.0 - 1.0;
        tn.xy *= uNormalScale;
        n = normalize(mat3(t, b, n) * tn);
    }
    vec3 v = normalize(uCameraPos - vWorldPos);
    float NdotV = max(dot(n, v), 1e-4);

    vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
    vec3 diffuseColor = base.rgb * (1.0 - metallic);
    float a = roughness * roughness;

    vec3 color = vec3(0.0);
    for (int i = 0; i < 4; i++) {
        if (i >= uLightCount) break;
        vec3 l;
        float atten = 1.0;
        if (uLightType[i] == 0) {
            l = -normalize(uLightDir[i]);
        } else {
            vec3 d = uLightPos[i] - vWorldPos;
            float dist = length(d);
            l = d / max(dist, 1e-6);
            atten = 1.0 / max(dist * dist, 1e-4);
            if (uLightRange[i] > 0.0) {
                atten *= clamp(1.0 - pow(dist / uLightRange[i], 4.0), 0.0, 1.0);
            }
            if (uLightType[i] == 2) {
                float cd = dot(normalize(uLightDir[i]), -l);
                atten *= smoothstep(uLightCone[i].x, uLightCone[i].y, cd);
            }
        }
        float NdotL = max(dot(n, l), 0.0);
        if (NdotL <= 0.0) continue;
        vec3 h = normalize(l + v);
        float NdotH = max(dot(n, h), 0.0);
        float VdotH = max(dot(v, h), 0.0);
        vec3 F = fresnelSchlick(VdotH, f0);
        vec3 spec = F * distributionGGX(NdotH, a) * visibilitySmithGGX(NdotL, NdotV, a);
        vec3 diff = (1.0 - F) * diffuseColor / PI;
        color += (diff + spec) * uLightColor[i] * NdotL * atten;
    }

    // Ambient: a sky/ground gradient for diffuse and, along the reflection,
    // for specular, weighted by a roughness-aware Fresnel term.
    vec3 r = reflect(-v, n);
    vec3 ambientDiffuse = mix(uGroundColor, uSkyColor, n.y * 0.5 + 0.5);
    vec3 ambientSpec = mix(uGroundColor, uSkyColor, smoothstep(-0.3, 0.3, r.y));
    ambientSpec = mix(ambientSpec, ambientDiffuse, roughness);
    vec3 Fa = f0 + (max(vec3(1.0 - roughness), f0) - f0) * pow(1.0 - NdotV, 5.0);
    vec3 ambient = diffuseColor * ambientDiffuse + Fa * ambientSpec;
    if (uHasTex[3]) {
        float ao = sampleTex(3).r;
        ambient *= 1.0 + uOcclusionStrength * (ao - 1.0);
    }
    color += ambient;

    vec3 emissive = uEmissiveFactor;
    if (uHasTex[4]) emissive *= sampleTex(4).rgb;
    color += emissive;

    // Exposure, a filmic curve (ACES approximation), then sRGB.
    color *= uExposure;
    color = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), 0.0, 1.0);
    fragColor = vec4(pow(color, vec3(1.0 / 2.2)), base.a);
}
