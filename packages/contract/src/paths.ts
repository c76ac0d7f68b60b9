/** API paths (all under /api/, with trailing slashes as the spec writes them). */
export const api = {
  health: '/api/health/',
  devOutbox: '/api/dev/outbox/',
  auth: {
    login: '/api/auth/login/',
    registerFarmer: '/api/auth/register/farmer/',
    registerExpert: '/api/auth/register/expert/',
    verifyEmail: '/api/auth/verify-email/',
    resendOtp: '/api/auth/resend-otp/',
    activate: '/api/auth/activate/',
    refresh: '/api/auth/token/refresh/',
    logout: '/api/auth/logout/',
    forgotPassword: '/api/auth/forgot-password/',
    resetPassword: '/api/auth/reset-password/',
    changePassword: '/api/auth/change-password/',
    completeProfile: '/api/auth/complete-profile/',
    me: '/api/auth/me/',
  },
} as const;
